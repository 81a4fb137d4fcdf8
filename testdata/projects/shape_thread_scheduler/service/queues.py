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

    def put(self, task: Task):
        self.run_queue.put(task)

    def run(self):
        while not self.stopped:
            try:
                self.current_task = self.run_queue.get(timeout=0.5)
            except queue.Empty:
                continue
            self.current_task.execute()
