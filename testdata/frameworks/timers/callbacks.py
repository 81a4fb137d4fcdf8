# jobcheck-test: select=JC501
# Callbacks that timers of common libraries repeat: tornado's PeriodicCallback and twisted's
# LoopingCall, and one-shot timers (threading.Timer, loop.call_later, IOLoop.add_timeout)
# re-armed by the function they run. One-shot timers made elsewhere, and start-up loops that wait
# until something is ready (they return or raise once it is), are not periodic jobs.
import asyncio
from functools import partial
import subprocess
import threading

import requests
from tornado.ioloop import IOLoop, PeriodicCallback
from twisted.application.internet import TimerService
from twisted.internet.task import LoopingCall


class Hub:
    def __init__(self):
        self.interval = 3600
        self.callbacks = {}
        self.process = None

    async def purge_expired_tokens(self):  # expect: JC501
        requests.delete("https://tokens.example/expired")

    async def check_services(self):  # expect: JC501
        requests.get("https://services.example/health")

    def tick(self):  # expect: JC501
        requests.post("https://status.example/tick")
        asyncio.get_running_loop().call_later(30, self.tick)

    def abort(self):
        requests.post("https://status.example/abort")

    async def start(self):
        pc = PeriodicCallback(self.purge_expired_tokens, 1e3 * self.interval)
        self.callbacks["purge"] = pc
        pc.start()
        self.callbacks["services"] = PeriodicCallback(self.check_services, 60_000, jitter=0.1)
        for callback in self.callbacks.values():
            callback.start()
        IOLoop.current().call_later(2, self.abort)  # once
        self.tick()
        self.watch_task = asyncio.create_task(self.wait_for_process())
        self.wait_task = asyncio.create_task(self.wait_for_stop())

    async def wait_for_process(self):
        """Raises once the process has exited: a start-up watch, not periodic work."""
        while True:
            status = self.process.poll()
            if status is not None:
                raise RuntimeError(f"exited with {status}")
            await asyncio.sleep(0.5)

    async def wait_for_stop(self):
        """Returns the exit status once the service stops."""
        while True:
            status = self.process.poll()
            if status is None:
                await asyncio.sleep(1)
            else:
                return status


def heartbeat():  # expect: JC501
    requests.post("https://status.example/heartbeat")
    threading.Timer(30, heartbeat).start()


def flush_metrics():  # expect: JC501
    requests.post("https://metrics.example/flush")


def poll_queue():  # expect: JC501
    requests.post("https://queue.example/claim")


def cleanup_once():
    subprocess.run(["rm", "-rf", "/tmp/cache"])


def reminder():
    requests.post("https://status.example/remind")
    IOLoop.current().add_timeout(60, cleanup_once)  # another function, once


def main():
    heartbeat()
    LoopingCall(flush_metrics).start(30)
    TimerService(5, poll_queue).startService()
    threading.Timer(5, cleanup_once).start()
    IOLoop.current().call_later(1, reminder)
    IOLoop.current().start()


class Spawner:
    """The base polls through a method its subclasses implement, then does work of its own: the
    base's callback is a job, and so is each subclass's implementation."""

    def __init__(self):
        self.callbacks = []
        self.poll_callback = None

    def start_polling(self):
        self.poll_callback = PeriodicCallback(self.poll_and_notify, 30_000)
        self.poll_callback.start()

    async def poll(self):
        raise NotImplementedError

    async def poll_and_notify(self):  # expect: JC501
        status = await self.poll()
        if status is None:
            return
        self.poll_callback.stop()
        for callback in self.callbacks:
            callback()


class LocalSpawner(Spawner):  # expect: JC501
    async def poll(self):
        return subprocess.run(["pgrep", "server"]).returncode or None


DEFAULT_SPAWNER = LocalSpawner  # the application's own choice (a class only a configuration names is not a job)


def connect_feed():
    """Quiet: re-armed only when the connection fails, a retry that ends once it succeeds."""
    try:
        requests.get("https://feed.example/stream")
    except requests.ConnectionError:
        threading.Timer(5, connect_feed).start()


from twisted.internet import reactor


class NightlyBuild:
    """Re-armed by a helper its callback calls (twisted's `reactor.callLater`): periodic."""

    def __init__(self):
        self.timer = None
        self.queue = []

    def schedule_next(self):
        self.timer = reactor.callLater(self.seconds_until_next(), self.actuate)

    def seconds_until_next(self):
        return 86400

    def actuate(self):  # expect: JC501
        def start_and_reschedule():
            requests.post("https://ci.example/builds")
            self.schedule_next()

        start_and_reschedule()

    def drain(self):
        """Goes on at the next turn while items remain: a queue drained a step at a time."""
        item = self.queue.pop(0)
        requests.post("https://ci.example/items", json=item)
        if self.queue:
            reactor.callLater(0, self.drain)


class Uploader:
    """Armed again only when the upload failed: a retry, not a period."""

    def upload(self, item):
        response = requests.post("https://files.example/upload", json=item)
        if response.status_code >= 500:
            self.retry_later(item)

    def retry_later(self, item):
        threading.Timer(60, self.upload, args=(item,)).start()


def cull_idle(url, limit):  # expect: JC501
    requests.delete(f"{url}/idle", params={"older_than": limit})


def start_culler(url):
    # The callback is a `functools.partial` held in a local.
    cull = partial(cull_idle, url=url, limit=3600)
    IOLoop.current().add_callback(cull)
    PeriodicCallback(cull, 60 * 1000).start()


def placeholder():
    requests.post("https://example.com/never")


def start_each(callbacks):
    # Rebound by the loop: each callback, not the partial it held before.
    cb = partial(placeholder)
    for cb in callbacks:
        PeriodicCallback(cb, 1000).start()


import sched
import time


class Connector:
    """The standard library's scheduler, re-armed in `finally` by the function it runs: periodic."""

    def __init__(self):
        self.scheduler = sched.scheduler(time.time, time.sleep)

    def _schedule_process(self, callback, period):  # expect: JC501
        try:
            callback()
        finally:
            self.scheduler.enter(period, 1, self._schedule_process, (callback, period))

    def start(self, callback):
        self.scheduler.enter(60, 1, self._schedule_process, (callback, 60))
        self.scheduler.run()
