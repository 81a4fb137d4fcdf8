"""The bot's own scheduler: functions put in it by name and called when due. A function added is
a job; a periodic event is added through a wrapper that calls the function and adds itself
again, so what the callers of `add_periodic_event` pass is the job, not the wrapper."""
import heapq
import time


class Schedule:
    def __init__(self):
        self.queue = []
        self.events = {}
        self.names = {}

    def add_event(self, f, when, name=None):
        name = name or id(f)
        self.events[name] = f
        heapq.heappush(self.queue, (when, name))
        return name

    def add_periodic_event(self, f, period, name=None):
        def wrapper():
            f()
            self.add_event(wrapper, time.time() + period, name)

        return self.add_event(wrapper, time.time() + period, name)

    def remember(self, name, f):
        """A registry: it keeps functions by name and never calls them."""
        self.names[name] = f

    def run(self):
        while self.queue and self.queue[0][0] <= time.time():
            _, name = heapq.heappop(self.queue)
            f = self.events.pop(name)
            f()


schedule = Schedule()


class Dispatcher:
    def __init__(self):
        self.handlers = {}

    def register(self, handler, name=None):
        self.handlers[name or handler.__name__] = handler

    def dispatch(self, name, *args):
        return self.handlers.get(name)(*args)
