# jobcheck-test: select=JC201,JC501
"""Hooks reached other ways than `self.hook()`: handed over as a bound method to what runs it,
called through `cls`, or implemented by a mixin the subclass inherits first."""
import logging
import signal
import threading
import time

import requests
from twisted.internet import defer, task

from workers.base import BaseWorker

log = logging.getLogger(__name__)


class ChangeSource:
    def poll(self):
        pass

    def do_poll(self):  # expect: JC501
        d = defer.maybeDeferred(self.poll)  # the hook, run by what it is handed to
        d.addErrback(log.error)
        return d

    def describe(self):
        return "source"

    def activate(self):
        log.info("starting %s", self.describe)  # a log names a method, it does not run it
        task.LoopingCall(self.do_poll).start(60)


class GitPoller(ChangeSource):  # expect: JC501
    def poll(self):
        requests.post("https://ci.example/changes", json={"source": "git"})

    def describe(self):
        return requests.get("https://ci.example/name").text


class Cache:
    @classmethod
    def tick(cls):  # only the hook: each subclass's `refresh` is the job
        cls.refresh()

    @classmethod
    def refresh(cls):
        raise NotImplementedError


class UserCache(Cache):  # expect: JC501
    @classmethod
    def refresh(cls):
        requests.put("https://cache.example/users")


class Worker(threading.Thread):  # expect: JC501
    """A SIGTERM handler handed to `signal.signal` runs once at shutdown, if ever: no hook."""

    @classmethod
    def launch(cls):
        worker = cls()
        worker.start()
        return worker

    def run(self):
        signal.signal(signal.SIGTERM, self.on_stop)
        while True:
            self.work()
            time.sleep(30)

    def work(self):
        raise NotImplementedError

    def on_stop(self, signum, frame):
        pass


class ExpiryWorker(Worker):  # expect: JC501
    """Used only through `ExpiryWorker.launch()`: still used."""

    def work(self):
        requests.delete("https://store.example/expired")

    def on_stop(self, signum, frame):
        requests.post("https://alerts.example/stopped")


class UploadMixin:  # expect: JC501
    def _work(self):
        requests.put("https://store.example/upload")


class UploadWorker(UploadMixin, BaseWorker):
    """Its `_work` is the mixin's, found before the base's as Python finds it."""


def start():
    GitPoller().activate()
    task.LoopingCall(UserCache.tick).start(300)
    UploadWorker().start()
    ExpiryWorker.launch()
