# jobcheck-test: select=JC501
# A worker taking each item from a queue known as one waits for it, with a timeout or not
# (`await self._queue.get()`): it repeats until stopped. What it does with each item, a result it
# keeps or not (`processed = await process_next(...)`), is a step of every round, and so is a
# callback its users set on it (`set_callbacks(on_found=self.announce)`). A `get()` on something
# not known as a queue (a future's result) is no wait.
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


class Scanner:
    """Its loop awaits the callbacks its users set on it: each is a step of every round."""

    def __init__(self):
        self.on_found = None
        self.running = True

    def set_callbacks(self, on_found=None):
        self.on_found = on_found

    async def scan_forever(self):  # expect: JC501
        while self.running:
            for host in ("a", "b"):
                if self.on_found:
                    await self.on_found(host)
            await asyncio.sleep(30)

    def start(self):
        asyncio.get_running_loop().create_task(self.scan_forever())


class Notifier:
    def __init__(self):
        self.scanner = Scanner()
        self.scanner.set_callbacks(on_found=self.announce)

    async def announce(self, host):
        requests.post("https://chat.example/hooks", json={"host": host})
