# jobcheck-test: select=JC501
import time

import requests

from .schedule import Dispatcher, schedule


def flush_feeds():  # expect: JC501
    requests.post("https://feeds.example/flush")


def send_reminder():  # expect: JC501
    requests.post("https://chat.example/remind")


def describe():
    requests.get("https://chat.example/help")


def setup():
    schedule.add_periodic_event(flush_feeds, 3600, name="flush")
    schedule.add_event(send_reminder, time.time() + 60)
    schedule.remember("help", describe)


class Flusher:
    def __call__(self):
        requests.post("https://feeds.example/flush-at-exit")


def on_ping():
    requests.post("https://chat.example/pong")


def wire():
    """A dispatcher calls a handler when asked, once: not a queue. `atexit.register` is not one
    of the application's queues, whatever its method is called."""
    import atexit

    dispatcher = Dispatcher()
    dispatcher.register(on_ping)
    atexit.register(Flusher())
