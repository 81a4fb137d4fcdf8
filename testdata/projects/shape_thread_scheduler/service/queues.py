# jobcheck-test: select=JC501
"""The service's own queues: items are threads, added to a queue whose runner pops the next one
and starts it. Each item's `run` is a job; the queue's runner is one too (scheduled)."""
import queue
import threading

import requests


class GenericQueue:
    def __init__(self):
        self.queue = []
        self.current = None
        self.lock = threading.Lock()

    def add_item(self, item):
        with self.lock:
            self.queue.append(item)
            return item

    def run(self, force=False):  # expect: JC501
        with self.lock:
            if self.current is None or not self.current.is_alive():
                if self.queue:
                    self.current = self.queue.pop(0)
                    self.current.start()


class QueueItem(threading.Thread):
    def __init__(self, name):
        super().__init__()
        self.name = name

    def run(self):
        self.in_progress = True


class SearchItem(QueueItem):
    def __init__(self, show):
        super().__init__("SEARCH")
        self.show = show

    def run(self):  # expect: JC501
        super().run()
        requests.post("https://indexer.example/snatch", json={"show": self.show})


class MailItem(QueueItem):
    def run(self):  # expect: JC501
        requests.post("https://mail.example/send", json={"name": self.name})


class NeverQueued(QueueItem):
    """A queue item nobody adds: not a job."""

    def run(self):
        requests.post("https://audit.example/", json={})


class SearchQueue(GenericQueue):
    def add_item(self, item):
        if isinstance(item, SearchItem):
            super().add_item(item)


class MailQueue(GenericQueue):
    def add_item(self, name, force_next=False):
        item = MailItem(name)
        if force_next:
            item.run()
            return item
        return super().add_item(item)


class Registry:
    """Appends what it is given to a list and never runs it: not a queue."""

    def __init__(self):
        self.entries = []

    def add_item(self, entry):
        self.entries.append(entry)


class Task:
    def __init__(self, name):
        self.name = name

    def execute(self):  # expect: JC501
        requests.post("https://tasks.example/run", json={"name": self.name})

    def describe(self):
        return self.name


class TaskQueue:
    """A worker thread's queue: it takes the next task and calls its one method."""

    def __init__(self):
        self.run_queue: queue.PriorityQueue[Task] = queue.PriorityQueue()
        self.current_task = None
        self.stopped = False

    def start(self):
        threading.Thread(target=self.run, daemon=True).start()

    def put(self, task: Task):
        self.run_queue.put(task)

    def run(self):  # expect: JC501
        while not self.stopped:
            try:
                self.current_task = self.run_queue.get(timeout=0.5)
            except queue.Empty:
                continue
            self.current_task.execute()


class Follower:
    """Reads a stream with a timeout on each request, never waiting between rounds: not periodic."""

    def __init__(self):
        self.stopped = False

    def start(self):
        threading.Thread(target=self.follow, daemon=True).start()

    def follow(self):
        while not self.stopped:
            requests.get("https://events.example/next", timeout=5)


class Events(threading.Thread):  # expect: JC501
    """Dispatches each event it takes to the callback it was given: the thread's loop is a worker,
    the callback a handler of events, not work repeated every round."""

    def __init__(self, callback):
        super().__init__(daemon=True)
        self.queue = queue.Queue()
        self.callback = callback
        self.stop = threading.Event()

    def put(self, event_type):
        self.queue.put(event_type)

    def run(self):
        while not self.stop.is_set():
            try:
                event_type = self.queue.get(timeout=1)
                self.callback(event_type)
                self.queue.task_done()
            except queue.Empty:
                pass


def on_shutdown(event_type):
    requests.post("https://status.example/shutdown", json={"event": event_type})


events = Events(on_shutdown)
