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

    def _spawn_worker(self, func, *args):
        return self._executor.submit(func, *args)

    def _keepalive(self):  # expect: JC501
        while not self._stop.is_set():
            requests.post("https://db.example/conductors/touch")
            self._stop.wait(10)

    def _register_once(self, name):
        requests.post("https://db.example/conductors", json={"name": name})
