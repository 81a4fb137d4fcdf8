# jobcheck-test: select=JC205,JC501
# Supervisor loops of a library's own engine: stopped by state on the object (`while not
# self._closing and self._failure is None:`), and a round that catches a tuple built from another
# (`except (*_INTERRUPTS, Settled):`), which says nothing about what it catches. A supervisor
# waiting on a selector (`selector.select(timeout)`), or racing its next read with its stop event
# (`asyncio.wait({stop, read}, return_when=FIRST_COMPLETED)`), between rounds and leaving when told
# to stop, however deep under the test (`if self.shutting_down: if not self.children: return`),
# repeats, as does a worker whose loop tests its stop flag and leaves on a condition of its own
# (`while not stop.is_set(): if stale: return`), or when drained (`if self._draining and not
# self.current: break`), or fails with the failure its round kept (`if error: raise error`); a
# loop returning once what it waits for is there (`return status`), or raising once a state of
# its own holds, is no periodic job.
import asyncio
import logging
import selectors
import threading
import time

import requests

logger = logging.getLogger(__name__)
_INTERRUPTS = (KeyboardInterrupt,)


class Settled(Exception):
    pass


class Engine:
    def __init__(self):
        self._closing = False
        self._failure = None
        self._supervisor = None

    async def start(self):
        self._supervisor = asyncio.create_task(self._run_supervisor(), name="supervisor")

    async def _run_supervisor(self):  # expect: JC501
        while not self._closing and self._failure is None:
            requests.post("https://engine.example/claims", timeout=10)
            await asyncio.sleep(5)


class Slot:
    def __init__(self):
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):  # expect: JC501
        while True:
            try:
                requests.post("https://slots.example/heartbeat", timeout=10)
            except (*_INTERRUPTS, Settled):
                pass
            time.sleep(10)


class Supervisor:
    def __init__(self):
        self.selector = selectors.DefaultSelector()
        self.shutting_down = False
        self.children = {}

    def _loop(self):  # expect: JC501
        while True:
            if self.shutting_down:
                if not self.children:
                    return
            for key, _ in self.selector.select(0.5):
                key.data.read()
            requests.post("https://supervisor.example/heartbeat", timeout=10)

    def _wait_for_children(self):
        while True:
            if not self.children:
                return
            for key, _ in self.selector.select(0.5):
                key.data.read()
            requests.post("https://supervisor.example/waiting", timeout=10)


class Worker:
    def __init__(self, ttl):
        self.ttl = ttl
        self._last_heartbeat_ok = time.monotonic()
        self._abandon = False

    async def serve(self, stop: asyncio.Event):  # expect: JC501
        while not stop.is_set():
            if time.monotonic() - self._last_heartbeat_ok > self.ttl:
                self._abandon = True
                return
            requests.post("https://workers.example/heartbeat", timeout=10)
            await asyncio.sleep(5)

    async def wait_until_done(self, stop: asyncio.Event, job_id):
        while not stop.is_set():
            status = requests.get(f"https://workers.example/jobs/{job_id}", timeout=10).json()
            if status["done"]:
                return status
            await asyncio.sleep(5)


class RacingReader:
    def __init__(self, broker):
        self.broker = broker
        self._stop = asyncio.Event()

    async def run(self):  # expect: JC501
        stop_task = asyncio.create_task(self._stop.wait())
        while True:
            read_task = asyncio.create_task(self.broker.read())
            await asyncio.wait({stop_task, read_task}, return_when=asyncio.FIRST_COMPLETED)
            if self._stop.is_set():
                read_task.cancel()
                break
            for message in read_task.result():
                requests.post("https://readers.example/messages", json=message, timeout=10)

    async def gather(self, pending):
        while True:
            done, pending = await asyncio.wait(pending)
            requests.post("https://readers.example/done", json=len(done), timeout=10)
            if not pending:
                break


class DrainingWorker:
    def __init__(self, queue):
        self.queue = queue
        self.running = True
        self._draining = False
        self.current = None

    async def _work_loop(self):  # expect: JC501
        while self.running:
            if self._draining and self.current is None:
                break
            self.current = await self.queue.dequeue()
            requests.post("https://workers.example/run", json={"id": self.current}, timeout=10)
            self.current = None
            await asyncio.sleep(1)


def consume(queue, fail_silently=False):  # expect: JC501
    while True:
        time.sleep(1)
        error = None
        try:
            requests.post(f"https://consumer.example/{queue}/next", timeout=10)
        except Exception as err:
            error = err
        if not fail_silently and error:
            raise error


def watch_start(name):
    while True:
        time.sleep(1)
        status = requests.get(f"https://consumer.example/{name}/status", timeout=10).json()
        if status["state"] == "failed":
            raise RuntimeError(status["reason"])


if __name__ == "__main__":
    Supervisor()._loop()
    consume("default")
    watch_start("default")
