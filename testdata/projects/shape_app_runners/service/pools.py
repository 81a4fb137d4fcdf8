# jobcheck-test: select=JC501
"""A helper of the service's own that hands its parameter to an executor: what its callers pass
runs in the background, a periodic job when it loops until stopped; a one-shot function is
listed as background work, not a job."""
import threading

import futurist
import requests


class ConductorManager:
    def __init__(self):
        self._executor = None
        self._stop = threading.Event()

    def start(self):
        self._executor = futurist.ThreadPoolExecutor(max_workers=8)
        self._spawn_worker(self._keepalive)
        self._spawn_worker(self._register_once, "conductor-1")
        self._spawn_named("sync", self._sync_loop)

    def _spawn_worker(self, func, *args):
        return self._executor.submit(func, *args)

    def _spawn_named(self, name, func):
        """Hands its parameter on to the helper that starts it."""
        self.names = [name]
        return self._spawn_worker(func)

    def _sync_loop(self):  # expect: JC501
        while not self._stop.is_set():
            requests.post("https://db.example/sync")
            self._stop.wait(30)

    def _keepalive(self):  # expect: JC501
        while not self._stop.is_set():
            requests.post("https://db.example/conductors/touch")
            self._stop.wait(10)

    def _register_once(self, name):
        requests.post("https://db.example/conductors", json={"name": name})


class Runner:
    """Starts the function it is constructed with in a thread of its own."""

    def __init__(self, func):
        self._thread = threading.Thread(target=func, daemon=True)
        self._thread.start()


def heartbeat():  # expect: JC501
    while True:
        requests.post("https://status.example/beat")
        threading.Event().wait(15)


def main():
    Runner(heartbeat)
