# jobcheck-test: select=JC201,JC501
# An event bus of the application's own: `subscribe(kind, handler)` keeps the handler in a list
# under the event's kind, and the bus's thread calls every handler of each event it takes from its
# queue. What the application subscribes runs in that thread, as part of its loop's work: listed
# beside the loop as dispatched, no entry point of its own (no JC501).
import threading
from collections import defaultdict
from queue import Empty, Queue


class EventBus:
    def __init__(self):
        self._queue = Queue()
        self._handlers = defaultdict(list)
        self._general = []
        self._worker = threading.Thread(target=self._dispatch_forever, daemon=True)

    def start(self):
        self._worker.start()

    def publish(self, event):
        self._queue.put(event)

    def subscribe(self, kind, handler):
        handlers = self._handlers[kind]
        if handler not in handlers:
            handlers.append(handler)

    def subscribe_all(self, handler):
        self._general.append(handler)

    def _dispatch_forever(self):  # expect: JC501
        while True:
            try:
                event = self._queue.get(timeout=1)
            except Empty:
                continue
            self._deliver(event)

    def _deliver(self, event):
        [handler(event) for handler in self._handlers[event.kind]]
        for handler in self._general:
            handler(event)


class Toolbar:
    """Listeners a window calls when a button is clicked: nothing in the background runs them."""

    def __init__(self):
        self._listeners = []

    def add_listener(self, listener):
        self._listeners.append(listener)

    def click(self):
        for listener in self._listeners:
            listener()


class Registry:
    """A second class with a `subscribe` of its own: a call on an object of no known type may be
    either's, so it registers nothing."""

    def __init__(self):
        self.seen = {}

    def subscribe(self, kind, handler):
        self.seen[kind] = handler
