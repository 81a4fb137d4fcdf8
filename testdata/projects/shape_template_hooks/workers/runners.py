# jobcheck-test: select=JC201,JC501
"""Shapes a template hook must leave alone: a runner thread whose loop only waits and keeps books
around the callable it was given, a subclass overriding a method of a library's base, and a
subclass that switches its base's retries off."""
import random
import threading
import time

import requests
from celery import Celery, Task

app = Celery("runners")


def jitter(seconds):
    return seconds * (0.9 + random.random() / 5)


class InfiniteLoop(threading.Thread):
    def __init__(self, func, interval):
        threading.Thread.__init__(self, daemon=True)
        self.func = func
        self.interval = interval
        self.runs = []

    def run(self):
        while True:
            started = time.monotonic()
            self.func()
            self.runs.append(time.monotonic() - started)  # bookkeeping, not work of its own
            time.sleep(jitter(self.interval))


def poll():  # expect: JC501
    requests.post("https://api.example/poll")


class PollTask(Task):  # expect: JC501
    def run(self):
        requests.get("https://api.example/poll")
        self.apply_async(countdown=60)


class TracedTask(PollTask):
    def apply_async(self, args=None, kwargs=None, **options):  # Celery's own method, overridden: not a hook
        requests.post("https://trace.example/span")
        return super().apply_async(args, kwargs, **options)


class ChargeTask(Task):  # expect: JC501
    autoretry_for = (IOError,)
    max_retries = 5

    def run(self, item_id):
        self.charge(item_id)

    def charge(self, item_id):
        raise NotImplementedError


class OneShotCharge(ChargeTask):
    autoretry_for = ()
    max_retries = 0

    def charge(self, item_id):  # expect: JC501
        requests.post("https://pay.example/charges", json={"item": item_id})  # not retried: no JC201


def start():
    InfiniteLoop(poll, 30).start()
    app.register_task(TracedTask())
    app.register_task(OneShotCharge())
