# jobcheck-test: select=JC501
"""Work the service hands to its runners, and look-alikes that are not periodic."""
import threading
import time

import httpx

from service import runner

stop = threading.Event()


async def check_pending_payments():  # expect: JC501
    async with httpx.AsyncClient() as client:
        await client.post("https://node.example/check")


async def collect_rates():  # expect: JC501
    async with httpx.AsyncClient() as client:
        await client.get("https://rates.example/latest")


def ticker():  # expect: JC501
    httpx.post("https://scheduler.example/tick")


def poll_until_stopped():  # expect: JC501
    while not stop.is_set():
        httpx.post("https://queue.example/poll")
        stop.wait(30)


def load_config():
    return httpx.get("https://config.example/").json()


def on_event(payload):
    httpx.post("https://hooks.example/", json=payload)


def drain(batch):
    n = 0
    while n < 3:
        httpx.post("https://queue.example/drain", json=batch)
        time.sleep(1)
        n += 1


def start():
    runner.create_permanent_task(check_pending_payments, interval=60)
    runner.create_permanent_task(collect_rates)
    runner.start_supervised(ticker, stop)
    threading.Thread(target=poll_until_stopped, daemon=True).start()
    threading.Thread(target=drain, args=([1],)).start()
    runner.call_with_retries(load_config)
    runner.register(on_event)


class QueuePoller(threading.Thread):  # expect: JC501
    def __init__(self):
        super().__init__(daemon=True)
        self.stop_event = threading.Event()

    def run(self):
        while not self.stop_event.is_set():
            httpx.post("https://queue.example/poll")
            self.stop_event.wait(30)


class OneShotExport(threading.Thread):
    def run(self):
        httpx.post("https://exports.example/run")


class InfiniteLoop(threading.Thread):
    """Runs the function it is given until told to stop: the job is that function."""

    def __init__(self, func, wait_between_runs=1):
        super().__init__(daemon=True)
        self.func = func
        self.wait_between_runs = wait_between_runs
        self.shutdown = threading.Event()

    def run(self):
        while True:
            if self.shutdown.wait(self.wait_between_runs):
                break
            self.func()


def ping_home():  # expect: JC501
    httpx.post("https://telemetry.example/ping")


def start_threads():
    InfiniteLoop(ping_home, wait_between_runs=3600).start()


def export_finished():
    return httpx.get("https://exports.example/status").json()["done"]


def wait_for_export():
    runner.wait_until(export_finished)
