"""The bot's scheduler, installed as `ircbot.schedule` (setup.py's package_dir maps `ircbot` to
`src`)."""
import heapq
import time


class Schedule:
    def __init__(self):
        self.events = {}
        self.queue = []

    def add_event(self, f, when, name):
        self.events[name] = f
        heapq.heappush(self.queue, (when, name))

    def add_periodic_event(self, f, period, name):
        def wrapper():
            f()
            self.add_event(wrapper, time.time() + period, name)

        self.add_event(wrapper, time.time() + period, name)

    def run(self):
        while self.queue and self.queue[0][0] <= time.time():
            _, name = heapq.heappop(self.queue)
            self.events.pop(name)()


schedule = Schedule()
