# jobcheck-test: select=JC501
# A scheduler of the application's own keeps the coroutine function its constructor is given
# (`self._runner = runner`) and starts a task per due job that awaits it, keeping only in-memory
# bookkeeping beside it (`self._running.add(job.id)`): the work started is what the constructions
# pass (`Scheduler(runner=run_job)`), not the wrapper: a job of its own, started anew in every
# round. A function no construction passes is not.
import asyncio
import logging

import httpx

log = logging.getLogger(__name__)


class Scheduler:
    def __init__(self, load_jobs, runner, max_concurrent=4):
        self._load_jobs = load_jobs
        self._runner = runner
        self._running = set()
        self._semaphore = asyncio.Semaphore(max_concurrent)

    async def run_forever(self):  # expect: JC501
        while True:
            for job in self._load_jobs():
                if job.id not in self._running:
                    self._running.add(job.id)
                    asyncio.create_task(self._run_safely(job))
            await asyncio.sleep(30)

    async def _run_safely(self, job):
        try:
            async with self._semaphore:
                await self._runner(job, trigger="cron")
        except Exception:
            log.exception("job %s failed", job.id)
        finally:
            self._running.discard(job.id)


async def run_job(job, trigger):  # expect: JC501
    async with httpx.AsyncClient() as client:
        await client.post("https://agents.example/runs", json={"job": job.id, "trigger": trigger})


async def never_given(job, trigger):
    async with httpx.AsyncClient() as client:
        await client.post("https://agents.example/never", json={"job": job.id})


def load_jobs():
    return []


async def main():
    scheduler = Scheduler(load_jobs=load_jobs, runner=run_job)
    await scheduler.run_forever()


if __name__ == "__main__":
    asyncio.run(main())
