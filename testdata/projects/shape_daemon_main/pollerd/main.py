# jobcheck-test: select=JC501
"""A console script declared in setup.py starts the poller's loop, one call down."""
import time

import requests


class Poller:
    def run(self):  # expect: JC501
        while True:
            requests.post("https://feeds.example/poll")
            time.sleep(60)


class Viewer:
    def run(self):  # expect: JC501
        while True:
            requests.get("https://feeds.example/view")
            time.sleep(1)


def main():
    Poller().run()


def ui():
    Viewer().run()


import gevent  # noqa: E402
from gevent.queue import Queue  # noqa: E402

jobs = Queue()


def worker():  # expect: JC501
    while True:
        item = jobs.get(timeout=5)
        requests.post("https://feeds.example/items", json=item)


def wait_for_answer(result):
    """Polls one result until it comes: a greenlet's get(timeout=) is no queue."""
    while True:
        value = result.get(timeout=5)
        if value is not None:
            requests.post("https://feeds.example/answer", json=value)
            return value


gevent.spawn(worker)
gevent.spawn(wait_for_answer, gevent.spawn(Poller().run))
