# jobcheck-test: select=JC501
# A loop that runs until stopped, waits between rounds and works in them is a periodic job whoever
# starts it: a daemon's loop its deployment runs, a library's scheduler loop its users start, a
# loop handed to a thread pool of the application's own. A loop waiting for a result, a runner of
# the callable it was given, and a loop that only waits are not.
import asyncio
import contextlib
import os
import select
import subprocess
import threading
import time

import paho.mqtt.client as mqtt
import requests
from clocklib import Clock


class Server:
    def __init__(self):
        self.running = True
        self.stopping = threading.Event()

    def sleep(self, timeout):
        self.stopping.wait(timeout)
        return self.running

    def heartbeat(self):
        requests.post("https://ops.example/heartbeat")

    def sleep_with_heartbeat(self, duration):
        while duration > 0:
            self.heartbeat()
            self.sleep(5)
            duration -= 5


class Aggregator(Server):
    def try_run(self):  # expect: JC501
        while self.running:
            requests.post("https://stats.example/aggregate")
            self.sleep(300)


class Workflow(Server):
    def try_run(self):  # expect: JC501
        while self.running:
            requests.post("https://workflow.example/step")
            self.sleep_with_heartbeat(30)


class Scaler(Server):
    def __init__(self, queue):
        super().__init__()
        self.queue = queue

    def process_timeouts(self):  # expect: JC501
        while self.running:
            message = self.queue.pop(blocking=True, timeout=1)
            if message:
                requests.delete(f"https://containers.example/{message}")


class Monitor:
    def __init__(self):
        self._event = threading.Event()

    def daemon(self):  # expect: JC501
        while True:
            if self._event.wait(5):
                return  # told to stop: not a loop waiting for a result
            requests.post("https://metrics.example/sample")


class PowerDevice:
    def __init__(self):
        self._poll_interval = 10

    async def _poll_device(self):  # expect: JC501
        while self._poll_interval is not None:
            requests.get("https://device.example/status")
            await asyncio.sleep(self._poll_interval)


# Clean: a loop that waits for a result returns it once it is there.
def wait_for_job(job_id):
    while True:
        state = requests.get(f"https://jobs.example/{job_id}").json()
        if state["done"]:
            return state
        time.sleep(2)


# Clean: a runner of the callable it is given; the jobs are what its users pass.
def forever(func, interval):
    while True:
        func()
        time.sleep(interval)


# Clean: a retry helper sleeps only after a failure, so a loop calling it does not wait each round.
def with_retries(func):
    for _ in range(3):
        try:
            return func()
        except ConnectionError:
            pass
        time.sleep(1)


def drain(queue):
    while True:
        item = queue.get_nowait()
        with_retries(lambda: requests.post("https://sink.example", json=item))


# Clean: a loop walking a chain ends by its own progress.
class Chain:
    def __init__(self, head):
        self.head = head

    def walk(self):
        node = self.head
        while node is not None:
            requests.post("https://chain.example", json=node.value)
            time.sleep(0.1)
            node = node.next


# A worker that learns the queue is empty from an exception and waits in its `except`.
class QueueWorker:
    def __init__(self, model):
        self.model = model
        self.stopping = threading.Event()

    def run(self):  # expect: JC501
        while not self.stopping.is_set():
            try:
                job = self.model.objects.filter(status="new").earliest("id")
                requests.post("https://jobs.example/run", json={"id": job.id})
            except self.model.DoesNotExist:
                self.stopping.wait(5)


# Clean: a loop that waits only after a failure goes round at once while the work succeeds.
class Supervisor:
    def serve(self):
        while True:
            try:
                requests.post("https://jobs.example/serve")
            except requests.RequestException:
                time.sleep(5)


# Clean: a loop that only waits does no work.
def idle():
    while True:
        time.sleep(60)


class Expiry:
    def __init__(self):
        self.stop = threading.Event()

    def expire_loop(self):  # expect: JC501
        while True:
            if self.stop.is_set():
                break  # told to stop
            try:
                requests.delete("https://cache.example/expired")
            except Exception:
                break  # a failure ends it (another rule's concern)
            time.sleep(1)


class Engine:
    """A scheduler service's loop: each round starts a tick (a new run of it every round: a job)
    and waits in a helper for the next due time, a wake-up or the stop, cancelling its waiters in
    a `finally` (which catches nothing: the wait happens every round)."""

    def __init__(self):
        self._wake = asyncio.Event()

    async def tick(self):  # expect: JC501
        requests.post("https://gateway.example/fire", json={})

    async def _sleep(self, stop):
        waiters = [asyncio.create_task(stop.wait()), asyncio.create_task(self._wake.wait())]
        try:
            await asyncio.wait(waiters, timeout=30, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in waiters:
                waiter.cancel()

    async def run_forever(self, stop):  # expect: JC501
        while not stop.is_set():
            self._wake.clear()
            asyncio.create_task(self.tick())
            await self._sleep(stop)


# Clean: a wait that ends in a last pause before leaving has no next round.
async def wait_until_quiet(page, renavigated, resets=0):
    while True:
        try:
            await asyncio.wait_for(renavigated.wait(), timeout=2)
        except asyncio.TimeoutError:
            break
        resets += 1
        requests.post("https://browser.example/restart-wait", json={"page": page})
        if resets > 3:
            await asyncio.sleep(2)
            break


# Clean: one client's messages relayed until it disconnects; `asyncio.wait` waits for the tasks.
async def relay(websocket, queue):
    while True:
        received = asyncio.create_task(websocket.receive())
        event = asyncio.create_task(queue.get())
        done, pending = await asyncio.wait([received, event], return_when=asyncio.FIRST_COMPLETED)
        if received in done:
            break
        requests.post("https://relay.example", json=event.result())


class Poller:
    """A library's main loop its users start: it waits between rounds with an interruptible
    sleep, `asyncio.wait_for(stop.wait(), timeout=...)`."""

    def __init__(self):
        self.stopping = asyncio.Event()

    async def run(self):  # expect: JC501
        while not self.stopping.is_set():
            requests.post("https://poll.example/tick")
            try:
                await asyncio.wait_for(self.stopping.wait(), timeout=5)
            except asyncio.TimeoutError:
                pass


class Plugin:
    """A library's plugin base: `sleep` waits, or wakes early, and says whether to go on."""

    def __init__(self):
        self.wakeup = asyncio.Event()

    async def sleep(self, seconds):
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.wakeup.wait(), timeout=seconds)
        self.wakeup.clear()
        return True


class PrunerPlugin(Plugin):
    async def run(self, worker):  # expect: JC501
        while await self.sleep(60):
            requests.post("https://jobs.example/prune", json={"worker": worker})


def claim(db):
    return db.claim_next()


def work_until_stopped(db, poll, drain=False):  # expect: JC501
    """Left early only in the mode its caller asks for (`drain`): by default it runs until stopped."""
    stop = threading.Event()
    while not stop.is_set():
        job = claim(db)
        if job is not None:
            requests.post("https://jobs.example/run", json={"job": job})
            continue
        if drain and db.pending() == 0:
            break
        stop.wait(poll)


def run_watch(args):  # expect: JC501
    """A command's loop that returns after one round unless its command line asks for the loop
    (`args.loop`, `options["once"]`): the mode is the caller's, the loop runs until stopped."""
    while True:
        requests.post("https://watch.example/poll")
        if not args.loop:
            return 0
        time.sleep(60)


def drain_outbox(*args, **options):  # expect: JC501
    while True:
        requests.post("https://outbox.example/flush")
        if options["once"]:
            break
        time.sleep(5)


class MqttAlerts:
    """Each round waits in the MQTT client's network loop (`client.loop(timeout=...)`)."""

    def run_forever(self):  # expect: JC501
        client = mqtt.Client()
        client.connect("broker.example")
        while True:
            requests.post("https://push.example/reminders")
            client.loop(timeout=1.0)


class ProbeWorker:
    """A worker others wake when there is work: each round waits, untimed, on an event of the
    library's (`self._wake.wait()` after `self._wake.clear()`)."""

    def __init__(self):
        self._wake = threading.Event()

    def start(self):
        threading.Thread(target=self._loop, daemon=True).start()

    def wake(self):
        self._wake.set()

    def _loop(self):  # expect: JC501
        while True:
            self._wake.clear()
            requests.post("https://probe.example/run")
            self._wake.wait()


def watch_spool(spool):  # expect: JC501
    """Each round waits in a program that waits for the next file (`inotifywait`)."""
    while True:
        subprocess.run(["inotifywait", "--event", "CREATE,MOVED_TO", spool], check=False)
        requests.post("https://mail.example/relay", json={"spool": spool})


def convert_all(paths):
    """A loop over the items it was given that runs a program for each: no rounds."""
    for path in paths:
        subprocess.run(["convert", path, path + ".png"], check=True)
        requests.post("https://images.example/uploaded", json={"path": path})


class Annotator:
    def __init__(self):
        self.shutdown_requested = False

    def main_loop(self, client, dry_run: bool):  # expect: JC501
        """Returns after one batch only in the mode its caller asks for (`dry_run`, no default)."""
        while not self.shutdown_requested:
            batch = client.claim_batch()
            if batch is None:
                time.sleep(30)
                continue
            labels = [item.upper() for item in batch]
            if dry_run:
                return 0
            requests.post("https://labels.example/submit", json={"labels": labels})
        return 0


async def write_heartbeat(client, worker_id, data):
    await client.setex(f"worker:{worker_id}", 30, data)


async def heartbeat_forever(client, worker_id, get_worker_data):  # expect: JC501
    """The callable it is given supplies values (named for asking, its result handed on): the loop
    is the job, not a runner of what its callers pass."""
    while True:
        await asyncio.sleep(10)
        await write_heartbeat(client, worker_id, get_worker_data())


class Agent:
    def __init__(self, client):
        self.client = client

    def worker_data(self):
        requests.post("https://metrics.example/snapshot", json={})
        return {"state": "up"}

    async def start(self):
        asyncio.create_task(heartbeat_forever(self.client, "w1", self.worker_data))


async def refresh_forever(pool, stop: asyncio.Event, on_tick=None):  # expect: JC501
    """Started with its hook left at its default (a test gives one): the loop's own work is the job."""
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), timeout=30)
            break
        except TimeoutError:
            pass
        requests.post("https://metrics.example/refresh", json={"pool": str(pool)})
        if on_tick is not None:
            await on_tick()


async def serve_metrics(pool, stop):
    asyncio.create_task(refresh_forever(pool, stop))


class ShutdownInterrupt(Exception):
    """The application's own stop signal, raised into its workers when the process stops."""


async def claim_and_run(db):  # expect: JC501
    """Returns when told to stop (an exception named for stopping, as for a cancellation), not
    when a round fails: it runs until stopped."""
    while True:
        try:
            job = await asyncio.to_thread(db.claim_next)
            if job is None:
                await asyncio.sleep(5)
                continue
            requests.post("https://jobs.example/run", json={"job": job})
        except ShutdownInterrupt:
            return
        except Exception:
            await asyncio.sleep(5)


def read_all(stream):
    """Ends when what it reads is exhausted (`StopIteration`), not when told to stop: a task
    started once, no periodic job."""
    while True:
        try:
            requests.post("https://sink.example/lines", json={"line": next(stream)})
        except StopIteration:
            return
        time.sleep(1)


async def start_workers(db, stream):
    asyncio.create_task(claim_and_run(db))
    threading.Thread(target=read_all, args=(stream,)).start()



class ShutdownState:
    def __init__(self):
        self.requested = False


_shutdown = ShutdownState()


def _interruptible_sleep(seconds):
    deadline = time.monotonic() + seconds
    while not _shutdown.requested:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        time.sleep(min(0.1, remaining))


def serve_queue(poll_interval=1.0):  # expect: JC501
    """Runs until a shutdown is requested (a flag read from an object named for it), napping
    between rounds in a helper named for sleeping that cuts its nap short at a deadline."""
    while not _shutdown.requested:
        requests.post("https://jobs.example/tick")
        _interruptible_sleep(poll_interval)


class ClaimingWorker:
    def __init__(self, parent_pid):
        self._stop = threading.Event()
        self.parent_pid = parent_pid

    def request_stop(self):
        self._stop.set()

    def run(self):  # expect: JC501
        """Leaves when orphaned only after asking itself to stop: it runs until stopped."""
        while not self._stop.is_set():
            if os.getppid() != self.parent_pid:
                self.request_stop()
                break
            requests.post("https://jobs.example/claim")
            self._stop.wait(5)


def poll_until_ready(job_id):
    """Leaves once its own condition holds, asking nothing to stop: a wait for a result."""
    while True:
        if requests.get(f"https://jobs.example/{job_id}").json()["done"]:
            break
        time.sleep(5)


class ClockedScheduler:
    def __init__(self, clock: Clock):
        self._clock = clock
        self._stopped = False

    async def run(self, sleep=1.0):  # expect: JC501
        """Waits between rounds on a library's clock (injectable in tests), by its method named for
        sleeping."""
        while not self._stopped:
            requests.post("https://jobs.example/due")
            await self._clock.sleep_async(sleep)


class LeasingWorker:
    def __init__(self):
        self._stopping = asyncio.Event()

    async def _idle(self, seconds):
        try:
            await asyncio.wait_for(self._stopping.wait(), timeout=seconds)
        except asyncio.TimeoutError:
            return

    async def _pause(self, seconds):
        if seconds > 0:
            await asyncio.sleep(seconds)

    async def claim_loop(self):  # expect: JC501
        """Idles in a helper whose `try` only hears the timeout that ends its wait."""
        while not self._stopping.is_set():
            requests.post("https://jobs.example/claim")
            await self._idle(5)

    async def renew_loop(self):  # expect: JC501
        """Pauses in a helper named for pausing, whatever condition its sleep sits under."""
        while not self._stopping.is_set():
            requests.post("https://jobs.example/renew")
            await self._pause(10)


class BurstWorker:
    def __init__(self, burst=False):
        self._running = True
        self.burst = burst

    def main_loop(self, db):  # expect: JC501
        """Leaves in burst mode only after clearing its own run flag: it runs until stopped."""
        while self._running:
            jobs = db.dequeue()
            if self.burst and not jobs:
                self._running = False
                return
            for job in jobs:
                requests.post("https://jobs.example/run", json={"job": job})
            time.sleep(1)


class ForkingSupervisor:
    def __init__(self):
        self._stopping = False
        self._wakeup_r, self._wakeup_w = os.pipe()

    def _interruptible_sleep(self, seconds):
        try:
            ready, _, _ = select.select([self._wakeup_r], [], [], seconds)
            if ready:
                os.read(self._wakeup_r, 4096)
        except InterruptedError:
            pass

    def supervise(self):  # expect: JC501
        """Sleeps between rounds in `select` on a self-pipe (a signal handler cuts it short)."""
        while not self._stopping:
            requests.post("https://ops.example/supervisor/heartbeat")
            self._interruptible_sleep(1.0)


class TickingCommand:
    """A worker whose loop is one call (`while self.do_loop(): pass`): the round works, waits
    and says whether to go on. A loop over a call that only checks something is no job."""

    def handle(self):
        while self.do_loop():
            pass
        while self.is_locked():
            pass

    def do_loop(self):  # expect: JC501
        requests.post("https://jobs.example/tick")
        time.sleep(1)
        return True

    def is_locked(self):
        time.sleep(1)
        return os.path.exists("/tmp/lock")


class FileQueue:
    def __init__(self):
        self._stop = False

    def work(self, poll=0.5, on_event=None):  # expect: JC501
        """Calls an optional hook (`on_event`, None unless its user gives one) each round: its own
        work is the job."""
        while not self._stop:
            job = self.claim()
            if job is None:
                time.sleep(poll)
                continue
            requests.post("https://jobs.example/run", json=job)
            if on_event:
                on_event("done", job)

    def claim(self):
        return None


def heartbeat_log(stop, label, task_log_fn=None):
    """Started with a hook its starter passes: a runner of that hook, no job of its own."""
    while not stop.wait(15):
        if callable(task_log_fn):
            try:
                task_log_fn(label)
            except Exception:
                pass


def run_with_heartbeat(label, sink):
    stop = threading.Event()
    threading.Thread(target=heartbeat_log, args=(stop, label, sink)).start()


def run_sync_loop(store, *, poll_seconds=60, iterations=None):  # expect: JC501
    """Runs until stopped unless a caller (a test) bounds it with `iterations`."""
    count = 0
    while iterations is None or count < iterations:
        requests.post("https://sync.example/run", json={"store": store})
        count += 1
        time.sleep(poll_seconds)


def retry_a_few(store, attempts=None):
    """A bound it defaults itself, not left open: it ends by its own progress."""
    attempts = 3 if attempts is None else attempts
    count = 0
    while count < attempts:
        requests.get("https://sync.example/ping")
        count += 1
        time.sleep(1)
