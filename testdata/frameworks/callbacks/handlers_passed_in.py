# jobcheck-test: select=JC501
# An in-house queue's worker: each slot loops until its stop event (a parameter typed
# `asyncio.Event`) is set, waiting on that event with a timeout between claims, and runs the
# handler its table holds for the job's type. The table is handed to the worker's constructor
# (`self._handlers = dict(handlers)`), built by a function of the application that returns a dict
# of its nested functions (`{name: available[name] for name in chosen}`): each is a job. A
# function the table does not hold is not.
import asyncio
import contextlib
import logging

import httpx

log = logging.getLogger(__name__)


class Worker:
    def __init__(self, sessions, handlers, poll_interval=5.0):
        self._sessions = sessions
        self._handlers = dict(handlers)
        self._poll = poll_interval

    async def claim(self):
        async with self._sessions() as session:
            return await session.claim_next()

    async def execute(self, job):
        try:
            await self._handlers[job.type](job)
        except Exception:
            log.exception("job %s failed", job.id)
        async with self._sessions() as session:
            await session.finish(job.id)

    async def _slot(self, stop: asyncio.Event) -> None:  # expect: JC501
        while not stop.is_set():
            job = await self.claim()
            if job is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=self._poll)
                continue
            await self.execute(job)

    async def run(self, stop: asyncio.Event) -> None:
        slots = [asyncio.create_task(self._slot(stop)) for _ in range(4)]
        await stop.wait()
        await asyncio.gather(*slots)


def build_handlers(client, types=()):
    async def sync_account(job):  # expect: JC501
        await client.post("https://crm.example/sync", json={"account": job.payload["account"]})

    async def deliver_webhook(job):  # expect: JC501
        await client.post(job.payload["url"], json=job.payload["body"])

    async def not_registered(job):
        await client.post("https://crm.example/never", json={})

    available = {"sync_account": sync_account, "deliver_webhook": deliver_webhook}
    chosen = list(types) or list(available)
    return {name: available[name] for name in chosen}


async def serve(sessions, stop):
    async with httpx.AsyncClient() as client:
        worker = Worker(sessions, build_handlers(client))
        await worker.run(stop)
