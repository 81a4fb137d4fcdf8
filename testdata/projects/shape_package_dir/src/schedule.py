"""The bot's scheduler, installed as `ircbot.schedule` (setup.py's package_dir maps `ircbot` to
`src`)."""
import time


class Schedule:
    def __init__(self):
        self.events = {}

    def add_event(self, f, when, name):
        self.events[name] = f

    def add_periodic_event(self, f, period, name):
        def wrapper():
            f()
            self.add_event(wrapper, time.time() + period, name)

        self.add_event(wrapper, time.time() + period, name)

    def run(self):
        for name in list(self.events):
            self.events.pop(name)()


schedule = Schedule()
