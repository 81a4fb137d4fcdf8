# jobcheck-test: select=JC501
"""An installed package's console script (`agentd-1.0.dist-info/entry_points.txt`) runs `main`,
which starts the agent's loop two calls down: `main()` -> `_run(url)` -> `asyncio.run(agent.run())`."""
import asyncio

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


def _run(url):
    agent = Agent(url)
    asyncio.run(agent.run())


def main():
    _run("https://hub.example")
