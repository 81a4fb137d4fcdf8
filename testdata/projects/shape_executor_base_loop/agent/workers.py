import os
import time

import requests

from agent.base import BackgroundExecutor


class Heartbeat(BackgroundExecutor):  # expect: JC501
    def tick(self):
        time.sleep(30)
        requests.post("https://status.example/beat", json={"agent": "a1"}, timeout=5)


class Sweeper(BackgroundExecutor):  # expect: JC501
    def tick(self):
        self._stopped.wait(600)
        for name in os.listdir("/var/spool/agent"):
            os.remove(os.path.join("/var/spool/agent", name))


class Unused(BackgroundExecutor):
    """Never made: no job."""

    def tick(self):
        time.sleep(1)
        requests.post("https://status.example/unused", timeout=5)


def main():
    Heartbeat().start()
    Sweeper().start()
