# jobcheck-test: select=JC501
"""A thread whose `run` starts a loop of its own, asking the callables it was given for values
(`self.get_state()`): the loop is the job, not those accessors. A method handed to a periodic
callback is a job."""
import threading

import requests
from tornado.ioloop import PeriodicCallback


class PingAlive(threading.Thread):
    def __init__(self, api, get_state, set_state):
        threading.Thread.__init__(self, daemon=True)
        self.api = api
        self.get_state = get_state
        self.set_state = set_state
        self.exit_event = threading.Event()

    def ping(self):  # expect: JC501
        while not self.exit_event.is_set():
            state = self.get_state()
            remote = self.api.connector.ping(state)
            if remote != state:
                self.set_state(remote)
            self.exit_event.wait(40)

    def run(self):
        self.ping()


class Helper:
    def __init__(self, api):
        self.state = {}
        self.pinger = PingAlive(api, self.get_state, self.set_state)
        self.pinger.start()

    def get_state(self):
        return self.state

    def set_state(self, state):
        self.state = state
        requests.put("https://state.example", json=state)


class KernelManager:
    def start_culling(self):
        PeriodicCallback(self.cull_kernels, 300_000).start()

    def cull_kernels(self):  # expect: JC501
        requests.delete("https://kernels.example/idle")


MANAGER = KernelManager()
