# jobcheck-test: select=JC201,JC501
# PgQueuer, as its documentation writes it: `@pgq.entrypoint("name")` handlers and
# `@pgq.schedule("name", cron)` recurring tasks. A handler is retried when it raises
# `RetryRequested` (after the effect here, on a server error), or for any exception under a
# `DatabaseRetryEntrypointExecutor`; otherwise a failing job is logged as failed, not run again.
from datetime import timedelta

import httpx
from pgqueuer import PgQueuer
from pgqueuer.errors import RetryRequested
from pgqueuer.executors import DatabaseRetryEntrypointExecutor
from pgqueuer.models import Job, Schedule


async def main(driver) -> PgQueuer:
    pgq = PgQueuer(driver)

    @pgq.entrypoint("call_api")
    async def call_api(job: Job) -> None:  # expect: JC501
        async with httpx.AsyncClient() as client:
            response = await client.post("https://api.example/hooks", content=job.payload)  # expect: JC201
        if response.status_code >= 500:
            raise RetryRequested(delay=timedelta(seconds=30), reason="server error")

    @pgq.entrypoint(
        "flaky_api",
        executor_factory=lambda params: DatabaseRetryEntrypointExecutor(parameters=params, max_attempts=5),
    )
    async def flaky_api(job: Job) -> None:  # expect: JC501
        async with httpx.AsyncClient() as client:
            await client.post("https://flaky.example/events", content=job.payload)  # expect: JC201

    @pgq.entrypoint("fire_and_forget")
    async def fire_and_forget(job: Job) -> None:  # expect: JC501
        async with httpx.AsyncClient() as client:
            await client.post("https://api.example/events", content=job.payload)  # not retried

    @pgq.schedule("hourly_report", "0 * * * *")
    async def hourly_report(schedule: Schedule) -> None:  # expect: JC501
        async with httpx.AsyncClient() as client:
            await client.post("https://reports.example/hourly", json={})  # not retried

    return pgq
