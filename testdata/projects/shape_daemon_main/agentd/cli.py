# jobcheck-test: select=JC501
"""An installed package's console script (`agentd-1.0.dist-info/entry_points.txt`) runs `main`,
which starts the agent's loop two calls down: `main()` -> `_run(url)` -> `asyncio.run(agent.run())`;
the start-up's registration retried beside it (`register(url)`) is no loop of the daemon's."""
import asyncio
import time

import requests


class Agent:
    def __init__(self, url):
        self.url = url
        self.stopped = False

    async def run(self):  # expect: JC501
        while not self.stopped:
            try:
                await self.serve()
            except ConnectionError:
                await asyncio.sleep(5)  # reconnects: it waits only when the connection drops

    async def serve(self):
        requests.post(self.url + "/register")


def register(url):
    """A start-up's retry, two calls down from main: left once registered, no daemon's loop."""
    delay = 5
    while True:
        try:
            requests.post(url + "/register")
            break
        except ConnectionError:
            time.sleep(delay)
            delay = min(delay + 5, 30)


def _run(url):
    register(url)
    agent = Agent(url)
    asyncio.run(agent.run())


def main():
    _run("https://hub.example")
