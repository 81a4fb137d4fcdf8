# jobcheck-test: select=JC501
"""An argparse program: each subcommand's handler is named by `set_defaults(func=...)`, and the
program's main calls it. `trade` runs the bot's loop, one call down, whose rounds wait in a
throttle helper (it runs the round's work, then sleeps out the rest of the interval)."""
import argparse
import time

import requests


class Worker:
    def __init__(self, interval):
        self.interval = interval
        self.paused = False

    def run(self):  # expect: JC501
        while True:
            self._round()

    def _round(self):
        if self.paused:
            self._throttle(self._idle, self.interval)
        else:
            self._throttle(self._process, self.interval)

    def _idle(self):
        pass

    def _throttle(self, func, seconds):
        started = time.time()
        func()
        time.sleep(max(0.0, seconds - (time.time() - started)))

    def _process(self):
        requests.post("https://exchange.example/orders", json={"side": "buy"})


class Retrier:
    """Sleeps only between failed attempts: its callers' loops do not wait on it each round."""

    def call(self, func):
        for _ in range(3):
            try:
                return func()
            except OSError:
                time.sleep(1)

    def watch(self):
        while True:
            self.call(self.ping)

    def ping(self):
        requests.get("https://exchange.example/ping")


def start_trading(args):
    Worker(args.interval).run()


def start_watching(args):
    Retrier().watch()


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers()
    trade = commands.add_parser("trade")
    trade.add_argument("--interval", type=float, default=5.0)
    trade.set_defaults(func=start_trading)
    watch = commands.add_parser("watch")
    watch.set_defaults(func=start_watching)
    commands.add_parser("update").set_defaults(func=start_updating)
    commands.add_parser("idle").set_defaults(func=idle)
    commands.add_parser("idle-longer").set_defaults(func=idle_longer)
    args = parser.parse_args()
    args.func(args)


class Updater:
    """Waits to be resumed, then updates once: its pause before a restart is in a branch, not a
    wait between rounds."""

    def __init__(self, resumed):
        self.resumed = resumed
        self.status = 0

    def run(self):
        while True:
            self.resumed.wait()
            if self.do_work():
                break

    def do_work(self):
        response = requests.post("https://updates.example/fetch")
        if response.ok:
            time.sleep(2)
            return True
        return False


def start_updating(args):
    Updater(args.resumed).run()


def pause():
    time.sleep(3600)


def idle(args):
    """A loop that only waits, through a helper: no work, no job."""
    while True:
        pause()


def rest_a_while():
    pause()


def idle_longer(args):
    """Waits through two helpers that only wait: no work, no job."""
    while True:
        rest_a_while()
