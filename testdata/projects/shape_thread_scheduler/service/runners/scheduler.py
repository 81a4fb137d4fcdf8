# jobcheck-test: select=JC501
"""The service's own scheduler (in a folder without __init__.py, as some applications have): a
thread that runs the action it was constructed with every cycle. The scheduler is a runner, not a
job: the actions are."""
import datetime
import threading
import time


class Scheduler(threading.Thread):
    def __init__(self, action, cycle=datetime.timedelta(minutes=10), name="scheduled"):
        super().__init__()
        self.action = action
        self.cycle = cycle
        self.name = name
        self.stop = threading.Event()
        self.force = False
        self.last_run = datetime.datetime.now()

    def run(self):
        while not self.stop.is_set():
            now = datetime.datetime.now()
            if self.force or now - self.last_run >= self.cycle:
                self.last_run = now
                self.action.run(self.force)
                self.force = False
            time.sleep(1)


class DelayedScheduler(Scheduler):
    """Keeps the scheduler's loop: what it is constructed with is a job too."""

    def next_run(self):
        return self.last_run + self.cycle


class Watchdog(threading.Thread):
    """Runs one check, once: a thread, not a periodic job."""

    def __init__(self, check):
        super().__init__()
        self.check = check

    def run(self):
        self.check.run()
