# jobcheck-test: select=JC201,JC501
"""The application's own worker classes: the base's loop or task does the scheduling, and each
subclass's hook does the work."""
import threading
import time

import requests

import telemetry
from celery import Celery, Task

app = Celery("workers")


class BaseWorker(threading.Thread):  # expect: JC501
    interval = 30

    def run(self):
        while True:
            if self.enabled():  # a question the loop asks, not work it hands over
                self.run_once()
            time.sleep(self.interval)

    def enabled(self):
        return True

    def run_once(self):
        self._work()  # one call down: the hook

    def _work(self):
        raise NotImplementedError


class SyncTask(Task):  # expect: JC501
    autoretry_for = (IOError,)
    max_retries = 5

    def run(self, account_id):
        self.sync(account_id)

    def sync(self, account_id):
        """Subclasses send the account's records."""


class Exporter:
    """A look-alike: its hook is run by a view, never by a worker."""

    def export(self):
        return self.render()

    def render(self):
        raise NotImplementedError


class BaseCleanup(threading.Thread):  # expect: JC501
    """Its subclasses define `_run`; the base never does."""

    def run(self):
        while True:
            self._run()
            time.sleep(60)


class Registry:
    def peers(self):
        return list(self.__dict__)


class PoolWorker(threading.Thread):  # expect: JC501
    """Asks the registry it was given on the way, but the work is its own: the thread is the job,
    not a runner of `Registry.peers`."""

    def __init__(self, registry):
        threading.Thread.__init__(self)
        self.registry = registry

    def run(self):
        while True:
            self.assign(self.registry.peers())
            time.sleep(5)

    def assign(self, peers):
        self.claim(peers)

    def claim(self, peers):
        telemetry.send(peers)  # a library's `send`, read while the jobs are being found
        requests.post("https://pool.example/claim", json=sorted(peers))


class Watchdog(threading.Thread):  # expect: JC501
    """The hook under an `if` is still the work of the subclass's thread."""

    def run(self):
        while True:
            if not self.healthy():
                self.alert()
            time.sleep(30)

    def healthy(self):
        return True

    def alert(self):
        raise NotImplementedError
