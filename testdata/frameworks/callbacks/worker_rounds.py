# jobcheck-test: select=JC501
# Worker loops of job libraries and what their rounds run. A loop told to go on for ever or while
# work is pending (`while forever or pending:`), one whose wait is a take told how long to wait
# (`await broker.dequeue(queues, timeout=2.0)`), and one that leaves when it took nothing for a
# while in a mode off by default (`if job: ... else: ... break`: no retry loop, which leaves when
# its attempt worked) are periodic jobs. Their steps include a method writing rows through an
# untyped connection (`self.conn.execute("UPDATE ...")`), the round a loop tests (`if not
# self.run_once():`), a step that claims rows and starts a task for each, and what a step runs for
# each item it fetched (`for row in rows: fire_schedule(conn, row)`), or a
# call whose count it keeps (`count = len(scheduler.advance())`); a step leasing one item and running
# it (`task = await self.store.lease_next_task(); await self._execute(task)`); a dispatcher calling
# the handler a table gives (`handler = self.handlers.get(kind); await handler(ctx)`); the phases a
# step named for the round runs (`await self._tick()`: `for phase in (...): await phase()`); a
# closure started for each claimed row that runs the callable its worker was given and then writes
# the row itself is the work started, not only that callable. A worker
# started in the background that may leave on a limit of its own (`if self._reached_cap():
# return`) is no periodic job, but what it runs for each item it leases is a step of it.
import asyncio
import logging
import threading
import time

import asyncpg
import requests

log = logging.getLogger(__name__)


class Dispatcher:
    def __init__(self, redis, handlers):
        self.redis = redis
        self.handlers = handlers

    async def serve(self, forever: bool = False):  # expect: JC501
        pending = True
        while forever or pending:
            message = await self.redis.xreadgroup("group", "me", {"jobs": ">"}, block=1000)
            pending = bool(message)
            requests.post("https://jobs.example/ack", json={"id": message})
            await asyncio.sleep(0.1)


class Consumer:
    def __init__(self, broker, queues):
        self.broker = broker
        self.queues = queues
        self._running = False

    async def run(self):  # expect: JC501
        self._running = True
        while self._running:
            job = await self.broker.dequeue(self.queues, timeout=2.0)
            if job is None:
                continue
            asyncio.create_task(self._process(job))

    async def _process(self, job):  # expect: JC501
        requests.post("https://jobs.example/done", json={"id": job})


class FolderWorker:
    def __init__(self, queue, stop_when_done=False):
        self.queue = queue
        self.stop_when_done = stop_when_done

    def run(self, poll_interval=1.0):  # expect: JC501
        idle = 0
        while True:
            try:
                job = self.queue.pop_next()
                if job:
                    requests.post("https://jobs.example/results", json={"id": job})
                else:
                    idle += 1
                    if self.stop_when_done and idle > 4:
                        break
            except Exception as exc:
                log.error("worker error: %s", exc)
            time.sleep(poll_interval)


class Engine:
    def __init__(self, conn):
        self.conn = conn

    def reap_expired(self, limit=100):
        self.conn.execute("UPDATE attempts SET state = 'lost' WHERE lease_until < now()")


class PgWorker:
    def __init__(self, engine: Engine, poll_interval=1.0):
        self.engine = engine
        self.poll_interval = poll_interval

    def run_once(self):
        row = self.engine.conn.execute("UPDATE jobs SET state = 'running' WHERE id = (SELECT id FROM jobs LIMIT 1) RETURNING id")
        if row is None:
            return False
        requests.post("https://jobs.example/run", json={"id": row})
        return True

    def run_forever(self, stop: threading.Event):  # expect: JC501
        while not stop.is_set():
            self.engine.reap_expired()
            if not self.run_once():
                stop.wait(self.poll_interval)


async def fire_schedule(conn: asyncpg.Connection, row):
    await conn.execute("NOTIFY schedules, $1", row["actor"])


async def tick_cron(conn: asyncpg.Connection):
    rows = await conn.fetch("SELECT * FROM schedules WHERE next_fire_at <= now()")
    for row in rows:
        await fire_schedule(conn, row)


class PollingWorker:
    def __init__(self, db):
        self.db = db
        self._shutdown_requested = False

    async def _poll_and_execute(self):
        tasks = await self.db.execute("UPDATE tasks SET state = 'claimed' WHERE state = 'queued' RETURNING *")
        for task in tasks:
            asyncio.create_task(self._execute_task(task))

    async def _execute_task(self, task):  # expect: JC501
        requests.post("https://jobs.example/execute", json={"id": task})

    async def start(self, conn):  # expect: JC501
        while not self._shutdown_requested:
            await self._poll_and_execute()
            await tick_cron(conn)
            await asyncio.sleep(1)


class RedisWorker:
    """Stopped by raising what stops it (`raise KeyboardInterrupt()`), waiting in a helper named
    for polling that sleeps only when the last round did nothing, and running each queue's work
    with what the round listed (`ids, count = self._process_from_queue(queue)`)."""

    def __init__(self, redis, interval=1.0):
        self.redis = redis
        self.interval = interval
        self._queue_set = set()
        self._did_work = False
        self._stop_requested = False

    def _poll_for_queues(self):
        if not self._did_work:
            time.sleep(self.interval)

    def _process_from_queue(self, queue):
        ids = self.redis.lrange(queue, 0, 10)
        requests.post("https://jobs.example/batch", json={"queue": queue, "ids": ids})
        return ids, len(ids)

    def _worker_run(self):
        queues = list(self._queue_set)
        for queue in queues:
            ids, count = self._process_from_queue(queue)
            if count > 0:
                self._did_work = True

    def run(self, once=False):  # expect: JC501
        try:
            while True:
                self._poll_for_queues()
                self._did_work = False
                self._worker_run()
                if once:
                    break
                if self._stop_requested:
                    raise KeyboardInterrupt()
        except KeyboardInterrupt:
            pass


class Scheduler:
    def __init__(self, conn):
        self.conn = conn

    def advance(self):
        return self.conn.execute("UPDATE schedules SET next_run = next_run + every WHERE next_run <= now() RETURNING id")


def scheduler_command(conn, stopped: threading.Event):  # expect: JC501
    scheduler = Scheduler(conn)
    while not stopped.is_set():
        count = len(scheduler.advance())
        log.info("published %d", count)
        stopped.wait(1.0)


class LeasingWorker:
    def __init__(self, store, handlers):
        self.store = store
        self.handlers = handlers

    async def run_once(self):
        task = await self.store.lease_next_task(lease_ttl=30)
        if task is None:
            return False
        await self._execute(task)
        return True

    async def _execute(self, task):
        await self.store.complete_task(task.id)

    async def _dispatch(self, job):
        handler = self.handlers.get(job.kind)
        return await handler(job)

    async def run(self, stop: asyncio.Event):  # expect: JC501
        while not stop.is_set():
            if not await self.run_once():
                await asyncio.sleep(1)
            job = await self.store.pickup()
            result = await self._dispatch(job)
            log.info("done: %s", result)


class ThreadWorker:
    def __init__(self, queue, max_jobs=None):
        self.queue = queue
        self.max_jobs = max_jobs
        self.done = 0
        self._stop = threading.Event()
        threading.Thread(target=self._loop, daemon=True).start()

    def _reached_cap(self):
        return self.max_jobs is not None and self.done >= self.max_jobs

    def _loop(self):
        while True:
            if self._reached_cap():
                return
            job = self.queue.lease_one()
            if job is None:
                self._stop.wait(1.0)
                continue
            self._run_one(job)

    def _run_one(self, job):
        requests.post("https://jobs.example/run", json={"id": job})
        self.done += 1


class Driver:
    def __init__(self, store, shutdown: asyncio.Event):
        self.store = store
        self.shutdown = shutdown

    async def run(self):  # expect: JC501
        while not self.shutdown.is_set():
            await self._tick()
            try:
                await asyncio.wait_for(self.shutdown.wait(), timeout=1.0)
            except asyncio.TimeoutError:
                pass

    async def _tick(self):
        for phase in (self._fire_due_schedules, self._reclaim_stale):
            try:
                await phase()
            except Exception:
                log.exception("phase %s failed", phase.__name__)
        self._count()

    def _count(self):
        log.info("tick")

    async def _fire_due_schedules(self):
        await self.store.execute("INSERT INTO runs SELECT * FROM schedules WHERE due <= now()")

    async def _reclaim_stale(self):
        await self.store.execute("UPDATE steps SET state = 'pending' WHERE lease_until < now()")


def rescue_stale(store):
    store.execute("UPDATE runs SET state = 'abandoned' WHERE heartbeat < now() - interval '5 minutes'")


def roll_up(store):
    store.execute("INSERT INTO daily SELECT day, count(*) FROM runs GROUP BY day")


class Beat:
    """A round named for a step of the loop (`self._step(...)`) does the round's work: what it
    calls, each at its own interval, are the loop's steps."""

    def __init__(self, store):
        self.store = store
        self.running = True

    def _step(self, rescue_due: bool):
        if rescue_due:
            rescue_stale(self.store)
        roll_up(self.store)

    def run(self):  # expect: JC501
        last = 0.0
        while self.running:
            now = time.monotonic()
            self._step(rescue_due=now - last >= 30)
            last = now
            time.sleep(1)


class OutboxRelay:
    """A step's call for each row it read, tested for how it went (`if self._publish_one(event):`),
    is a unit of the loop's work as a statement call is."""

    def __init__(self, db):
        self.db = db
        self.running = True

    def publish_pending(self):
        processed = 0
        for event in self.db.fetch("SELECT * FROM outbox WHERE status = 'pending'"):
            if not self._has_subscribers(event):
                continue
            if self._publish_one(event):
                processed += 1
        return processed

    def _publish_one(self, event):
        requests.post("https://broker.example/publish", json={"id": event["id"]})
        self.db.execute("UPDATE outbox SET status = 'sent' WHERE id = %s", [event["id"]])
        return True

    def _has_subscribers(self, event):
        return bool(self.db.fetch("SELECT 1 FROM subscribers WHERE kind = %s", [event["kind"]]))

    def run(self):  # expect: JC501
        while self.running:
            self.publish_pending()
            time.sleep(5)


def send_due_reports(db):
    sent = []
    for report in db.fetch("SELECT * FROM reports WHERE due <= now()"):
        requests.post("https://mail.example/send", json={"report": report["id"]})
        db.execute("UPDATE reports SET sent_at = now() WHERE id = %s", [report["id"]])
        sent.append(report["id"])
    return sent


def pending_reports(db):
    return db.fetch("SELECT * FROM reports WHERE sent_at IS NULL")


class ReportThread:
    """A call a round's `for` goes over is a step when it changes something (`for sent in
    send_due_reports(db):`), not when it only reads (`for report in pending_reports(db):`)."""

    def __init__(self, db):
        self.db = db
        self.running = True

    def run(self):  # expect: JC501
        while self.running:
            for sent in send_due_reports(self.db):
                log.info("sent %s", sent)
            for report in pending_reports(self.db):
                log.info("pending %s", report)
            time.sleep(30)


class TaskStore:
    def __init__(self, conn: asyncpg.Connection):
        self.conn = conn

    async def claim_task(self):
        return await self.conn.fetchrow("UPDATE tasks SET state = 'running' WHERE state = 'queued' RETURNING *")

    async def complete_task(self, task_id):
        await self.conn.execute("UPDATE tasks SET state = 'done' WHERE id = $1", task_id)


async def serve_tasks(store: TaskStore, execute_fn, stop: asyncio.Event):  # expect: JC501
    async def process_task(task):  # expect: JC501
        await execute_fn(task)
        await store.complete_task(task["id"])

    while not stop.is_set():
        task = await store.claim_task()
        if task is None:
            await asyncio.sleep(1)
            continue
        asyncio.create_task(process_task(task))
