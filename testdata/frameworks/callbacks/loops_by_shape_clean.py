# jobcheck-test: select=JC201,JC202,JC205,JC501
# Loops nothing shown starts that are no periodic jobs: waits left once something holds, retry
# loops, generators, spinners, readiness waits, walks along a chain, polls for data; a timer whose
# method works itself keeps it as the job (the callback it was given only hears of the result);
# a thread whose `run` hands over to a loop method of its own runs what it was constructed with.
import asyncio
import itertools
import socket
import sys
import threading
import time

import requests
from tornado.ioloop import PeriodicCallback


def wait_until_done(client, job_id):
    while True:
        status = client.get_status(job_id)
        if status == "done":
            break
        time.sleep(2)


def connect(host, port):
    while True:
        try:
            sock = socket.create_connection((host, port))
            break
        except OSError:
            time.sleep(1)
    return sock


def send_until_ok(url, payload):
    while True:
        try:
            requests.get(url, params=payload, timeout=5)
            break
        except requests.RequestException:
            time.sleep(5)


def follow(path):
    with open(path) as fh:
        while True:
            line = fh.readline()
            if not line:
                time.sleep(0.1)
                continue
            yield line


class Spinner:
    def __init__(self):
        self._stop = threading.Event()

    def spin(self):
        chars = itertools.cycle("|/-\\")
        while not self._stop.is_set():
            sys.stdout.write(next(chars))
            sys.stdout.flush()
            time.sleep(0.1)


class Client:
    def __init__(self, host):
        self.sock = socket.create_connection((host, 1))
        self._ready = threading.Event()
        self.pending = None

    def wait_ready(self):
        while True:
            self.sock.send(b"hello")
            if self._ready.wait(1):
                return

    def drain(self):
        while self.pending is not None:
            self.sock.send(self.pending.data)
            self.pending = self.pending.next
            time.sleep(0.1)


def recv_message(sock):
    while True:
        data = sock.recv(1024)
        if data:
            break
        time.sleep(0.01)
    return data


def serve(sock):
    while True:
        message = recv_message(sock)
        sock.sendall(b"ack:" + message)


class Refresher:
    def __init__(self, url, on_change):
        self.url = url
        self.on_change = on_change
        self.timer = PeriodicCallback(self.refresh, 10_000)

    def refresh(self):  # expect: JC501
        data = requests.get(self.url).json()
        self.on_change(data)


def changed(data):
    print(data)


def watch():
    Refresher("https://config.example", changed).timer.start()


class Repeater(threading.Thread):
    def __init__(self, func, interval):
        super().__init__(daemon=True)
        self.func = func
        self.interval = interval
        self.stopped = threading.Event()

    def run(self):
        self._loop()

    def _loop(self):
        while not self.stopped.is_set():
            self.func()
            time.sleep(self.interval)


def sync_accounts():  # expect: JC501
    requests.get("https://crm.example/accounts")


def main():
    Repeater(sync_accounts, 60).start()


class Ticker:
    """A loop started as a task that calls what it was constructed with: the jobs are what its
    users construct it with, not the loop."""

    def __init__(self, callback, period):
        self.callback = callback
        self.period = period

    def start(self):
        asyncio.get_event_loop().create_task(self._run())

    async def _run(self):
        while True:
            await self.callback()
            await asyncio.sleep(self.period)


async def refresh_prices():  # expect: JC501
    requests.get("https://prices.example/latest")


def start_ticker():
    Ticker(refresh_prices, 60).start()
