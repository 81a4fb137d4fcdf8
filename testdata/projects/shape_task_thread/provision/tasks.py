# jobcheck-test: select=JC501
"""The application's own task system: a thread class that runs, once, the callable it was
constructed with, started by a helper that hands it what its callers pass. What the callers pass
is a background task; the thread class and the helper are not."""
import logging
import threading
import uuid


class TaskThread(threading.Thread):
    def __init__(self, event_id, options, run, on_done=None, logger=None):
        super().__init__(name=event_id)
        self.event_id = event_id
        self.options = options
        self._run = run
        self.on_done = on_done
        self.logger = logger or logging.getLogger(__name__)

    def run(self):
        try:
            self._run(self)
            if self.on_done is not None:
                self.on_done(self)
            self.logger.info("task %s complete", self.event_id)
        except Exception:
            self.logger.exception("task %s failed", self.event_id)


class Progress(threading.Thread):
    """Keeps an object, not a callable: calling methods on it is not running a task."""

    def __init__(self, reporter):
        super().__init__()
        self.reporter = reporter

    def run(self):
        self.reporter.flush()


def start_task(func, options, on_done=None):
    event_id = uuid.uuid4().hex
    TaskThread(event_id, options, func, on_done).start()
    return event_id
