# jobcheck-test: select=JC501
# A worker taking each item from a queue known as one waits for it, with a timeout or not
# (`await self._queue.get()`): it repeats until stopped. What it does with each item, a result it
# keeps or not (`processed = await process_next(...)`), is a step of every round. A `get()` on
# something not known as a queue (a future's result) is no wait.
import asyncio

import requests


async def process_next(item):
    requests.post("https://jobs.example/run", json=item)
    return True


class Runner:
    def __init__(self):
        self._queue = asyncio.Queue()
        self.handled = 0

    async def _worker_loop(self):  # expect: JC501
        while True:
            item = await self._queue.get()
            processed = await process_next(item)
            self.handled += processed
            self._queue.task_done()

    def start(self):
        asyncio.get_running_loop().create_task(self._worker_loop())


class Waiter:
    def __init__(self, future):
        self.future = future

    async def _collect(self):
        while True:
            value = self.future.get()
            requests.post("https://jobs.example/value", json=value)

    def start(self):
        asyncio.get_running_loop().create_task(self._collect())
