# jobcheck-test: select=JC501
# A worker that takes each entry from a collection of its instance and runs a method of it
# (`entry = await self.queue.get(); await entry.run()`, `self.pending.pop().run()`) runs the
# method of the class every entry put there is: constructed where it is put
# (`self.queue.put(Entry(...))`) or a parameter annotated with it (`def queue(self, job: Job)`). So
# does one that takes them out of a module-level collection (`item = REPORTS.get(); item.send()`).
# Entries of several classes: the method of each can run (a value of no known class put there adds
# nothing).
import asyncio
import logging
import queue
import time

import requests

log = logging.getLogger(__name__)


class Entry:
    def __init__(self, name, url):
        self.name = name
        self.url = url

    async def run(self):
        requests.post(self.url, json={"name": self.name})


class Worker:
    def __init__(self):
        self.queue = asyncio.Queue()

    async def submit(self, name, url):
        await self.queue.put(Entry(name, url))

    async def serve(self):  # expect: JC501
        while True:
            entry = await self.queue.get()
            await entry.run()


class Job:
    def run(self):
        try:
            requests.post("https://hooks.example/job", json={})
        except Exception as exc:
            log.debug("job failed: %s", exc)


class Runner:
    def __init__(self):
        self.pending = []

    def queue(self, job: Job):
        self.pending.append(job)

    def start(self):  # expect: JC501
        while True:
            while self.pending:
                self.pending.pop().run()
            time.sleep(1)


class Ping:
    def run(self):
        try:
            requests.post("https://hooks.example/ping", json={})
        except Exception:
            pass


class Pong:
    def run(self):
        try:
            requests.post("https://hooks.example/pong", json={})
        except Exception:
            pass


class Mixed:
    """Entries of two classes, and one of no known class: a round runs `Ping.run` or `Pong.run`."""

    def __init__(self):
        self.queue = asyncio.Queue()

    def add(self, entry):
        self.queue.put_nowait(entry)

    async def both(self):
        await self.queue.put(Ping())
        await self.queue.put(Pong())

    async def serve(self):  # expect: JC501
        while True:
            entry = await self.queue.get()
            entry.run()


class Report:
    def send(self):
        requests.post("https://hooks.example/report", json={})


REPORTS = queue.Queue()


def schedule_report(report: Report):
    REPORTS.put(report)


def drain_reports():  # expect: JC501
    while True:
        item = REPORTS.get()
        item.send()
        time.sleep(1)
