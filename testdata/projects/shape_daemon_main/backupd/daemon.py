# jobcheck-test: select=JC501
"""A daemon started by a console script (`backupd = "backupd.daemon:main"`): `main` builds the
daemon and runs its loop, one call down. Its worker threads take items from queues handed to their
constructors (no type here: a `.get(timeout=...)` with nothing else is a queue's)."""
import queue
import threading
import time

import requests
from rq import Worker


class Uploader(threading.Thread):  # expect: JC501
    def __init__(self, upload_queue):
        super().__init__()
        self.upload_queue = upload_queue
        self.running = True

    def run(self):
        while self.running:
            try:
                item = self.upload_queue.get(timeout=1.0)
            except queue.Empty:
                continue
            requests.put("https://storage.example/" + item["name"], data=item["data"])


class Daemon:
    def __init__(self):
        self.running = True
        self.uploads = queue.Queue()

    def run(self):  # expect: JC501
        Uploader(self.uploads).start()
        while self.running:
            self.check_sites()
            time.sleep(5)

    def check_sites(self):
        requests.get("https://primary.example/status", timeout=5)


class Fetcher(threading.Thread):
    """Fetches once and ends: `requests.get(url, timeout=...)` is no queue."""

    def run(self):
        while True:
            requests.get("https://primary.example/once", timeout=5)
            break


class MaintainedWorker(Worker):
    def run_maintenance_tasks(self):  # expect: JC501
        super().run_maintenance_tasks()
        requests.post("https://ops.example/worker-heartbeat")


def main():
    Daemon().run()


def follow(path):  # expect: JC501
    """`tail -f`: a loop a CLI option runs, in a main no console script names; a loop that runs
    until stopped, waiting between rounds, is periodic work whoever starts it."""
    with open(path) as fh:
        while True:
            line = fh.readline()
            if line:
                requests.post("https://logs.example/lines", data=line)
            time.sleep(0.5)


def cli_main():
    follow("/var/log/app.log")
