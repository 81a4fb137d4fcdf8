# jobcheck-test: select=JC501
# The application's own timer API: `call_later(delay, func)` arms the event loop's timer with a
# closure calling `func`, and a widget's `timeout_add(seconds, method)` arms that one with a
# function running what it is handed. A callback re-armed through them repeats; one armed once is
# started once, later; a callback armed only after a failure is a retry, not a period.
import asyncio

import requests


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
