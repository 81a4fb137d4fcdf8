"""A loop of the same shape whose round never waits is no periodic job: it spins through what it
is given."""
import threading


class Spinner:
    def __init__(self, items):
        self.items = items
        self.keep_running = True

    def start(self):
        threading.Thread(target=self._entry).start()

    def _entry(self):
        self.loop()

    def loop(self):
        while self.keep_running:
            self.step()

    def step(self):
        raise NotImplementedError


class Counter(Spinner):
    def step(self):
        self.items.append(len(self.items))
        if len(self.items) > 10:
            self.keep_running = False


def main():
    Counter([]).start()
