# jobcheck-test: select=JC501
# The application's own timer API: `call_later(delay, func)` arms the event loop's timer with a
# closure calling `func`, and a widget's `timeout_add(seconds, method)` arms that one with a
# function running what it is handed. A callback re-armed through them repeats; one armed once is
# started once, later; a callback armed only after a failure is a retry, not a period.
import asyncio

import requests
from PyQt6.QtCore import QTimer


class Loop:
    def __init__(self):
        self._loop = asyncio.get_event_loop()

    def call_later(self, delay, func, *args):
        def run():
            func(*args)
            self.flush()

        return self._loop.call_later(delay, run)

    def flush(self):
        print("flushed")


class Widget:
    def __init__(self, loop):
        self.loop = loop

    def timeout_add(self, seconds, method, method_args=()):
        return self.loop.call_later(seconds, self._wrapper, method, *method_args)

    def _wrapper(self, method, *args):
        method(*args)

    def timer_setup(self):  # expect: JC501
        requests.get("https://weather.example/now")
        self.timeout_add(600, self.timer_setup)

    def show_once(self):  # started once, later: listed in the background, not a job
        requests.get("https://weather.example/alerts")

    def start(self):
        self.timeout_add(5, self.show_once)

    def reconnect(self):  # armed again only when connecting failed: a retry
        try:
            requests.get("https://weather.example/connect")
        except ConnectionError:
            self.timeout_add(5, self.reconnect)


class Loop2:
    """Timer functions that are no one-shot timers of their own, or do more than arm one."""

    def __init__(self):
        self._loop = asyncio.get_event_loop()

    def soon(self, fn):
        return self._loop.call_later(0, fn)  # the next turn: no timer

    def every(self, seconds, func):
        def tick():  # expect: JC501
            func()
            self._loop.call_later(seconds, tick)  # a period of its own, not a one-shot timer

        self._loop.call_later(seconds, tick)

    def fetch_later(self, delay, url, on_done):
        def fetch():  # works itself: it is what is started, the callback only hears of the result
            on_done(requests.get(url).json())

        self._loop.call_later(delay, fetch)

    def with_cleanup(self, delay, func):
        self._loop.call_later(3600, self._cleanup)  # armed with a callback of its own
        return self._loop.call_later(delay, func)

    def _cleanup(self):
        requests.delete("https://cache.example/expired")

    def later_kw(self, delay, func):
        return self._loop.call_later(delay, callback=func)

    def later_lambda(self, delay, func, *args):
        return self._loop.call_later(delay, lambda: func(*args))


def later(delay, cls):
    asyncio.get_event_loop().call_later(delay, cls)  # a parameter named `cls` is a callable like any


class Drain:
    def __init__(self):
        self.loop = Loop2()
        self.items = []

    def step(self):  # re-armed for the next turn: draining, no period
        requests.post("https://queue.example/item", json=self.items.pop())
        self.loop.soon(self.step)

    def refresh(self):  # repeated by `every`'s own closure: part of that period
        requests.get("https://weather.example/now")

    def show(self, data):
        print(data)

    def arm(self):
        self.loop.every(60, self.refresh)
        self.loop.fetch_later(5, "https://weather.example/alerts", self.show)
        self.loop.with_cleanup(10, self.show)
        self.loop.later_kw(5, self.by_keyword)
        self.loop.later_lambda(5, self.by_lambda, 1)
        later(5, Drain)

    def by_keyword(self):
        requests.get("https://weather.example/kw")

    def by_lambda(self, n):
        requests.get("https://weather.example/lambda")


def arm_deadline(deadline_ms, on_expiry):
    """A Qt timer made single-shot, whose slot calls the callable it was given: a one-shot timer
    of the application's own."""
    timer = QTimer()
    timer.setSingleShot(True)

    def on_timeout():
        on_expiry()

    timer.timeout.connect(on_timeout)
    timer.start(deadline_ms)
    return timer


def arm_repeating(interval_ms, on_tick):
    """Not single-shot: no one-shot timer (it repeats what it is given)."""
    timer = QTimer()

    def tick():
        on_tick()

    timer.timeout.connect(tick)
    timer.start(interval_ms)
    return timer


def arm_with_guard(interval_ms, on_tick):
    """Two timers made here, one of them single-shot: which one the slot is connected to is not
    known, so no one-shot timer of its own."""
    guard = QTimer()
    guard.setSingleShot(True)
    ticker = QTimer()

    def tick():
        on_tick()

    ticker.timeout.connect(tick)
    ticker.start(interval_ms)
    guard.start(interval_ms * 10)
    return ticker


def arm_maybe(interval_ms, on_tick, once):
    """Single-shot only when the caller says so: not known here, so no one-shot timer of its own."""
    timer = QTimer()
    timer.setSingleShot(once)

    def tick():
        on_tick()

    timer.timeout.connect(tick)
    timer.start(interval_ms)
    return timer


class Backups:
    def schedule(self, profile):
        self.deadline = arm_deadline(60000, lambda: self.create_backup(profile))
        self.ticker = arm_with_guard(1000, self.refresh_status)
        self.poller = arm_maybe(1000, self.refresh_status, once=False)

    def refresh_status(self):
        requests.get("https://backup.example/status")

    def create_backup(self, profile):
        requests.post("https://backup.example/run", json={"profile": profile})
