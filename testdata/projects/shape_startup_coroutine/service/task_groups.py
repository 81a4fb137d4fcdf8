# jobcheck-test: select=JC501
"""Loops spawned into an aiorpcx task group (ElectrumX's shape), sleeping with aiorpcx's `sleep`;
a coroutine spawned once, that returns, is no periodic job."""
import requests
from aiorpcx import TaskGroup, sleep


class SessionManager:
    async def _clear_stale_sessions(self):  # expect: JC501
        while True:
            await sleep(60)
            requests.delete("https://sessions.example/stale")

    async def _announce(self):
        requests.post("https://peers.example/announce")

    async def serve(self):
        async with TaskGroup() as group:
            await group.spawn(self._clear_stale_sessions())
            await group.spawn(self._announce())
