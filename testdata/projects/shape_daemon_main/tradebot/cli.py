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

    def run(self):  # expect: JC501
        while True:
            self._throttle(self._process, self.interval)

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
    args = parser.parse_args()
    args.func(args)
