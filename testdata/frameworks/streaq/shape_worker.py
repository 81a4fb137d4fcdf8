# jobcheck-test: select=JC201,JC501
# streaQ, as its documentation writes it: `@worker.task(...)` and `@worker.cron(...)` on a
# `Worker`. A task is retried only when it raises `StreaqRetry` (up to `max_tries`, default 3);
# any other exception fails it.
from httpx import AsyncClient
from streaq import Worker, WrappedContext
from streaq.task import StreaqRetry

worker = Worker(redis_url="redis://localhost:6379")


@worker.task(timeout=5, max_tries=5)
async def push_event(ctx: WrappedContext[None], event_id: str) -> None:  # expect: JC501
    async with AsyncClient() as client:
        response = await client.post("https://events.example/", json={"id": event_id})  # expect: JC201
    if response.status_code >= 500:
        raise StreaqRetry("upstream failed")


@worker.task()
async def notify(ctx: WrappedContext[None], user_id: int) -> None:  # expect: JC501
    async with AsyncClient() as client:
        await client.post("https://push.example/send", json={"user": user_id})  # never retried


@worker.task()
async def wait_until_ready(ctx: WrappedContext[None], job_id: str) -> None:  # expect: JC501
    if ctx.tries < 3:
        raise StreaqRetry("not ready", delay=10)  # retried before any effect
    async with AsyncClient() as client:
        await client.post("https://jobs.example/done", json={"id": job_id})


@worker.cron("30 9 * * mon-fri")
async def morning_digest(ctx: WrappedContext[None]) -> None:  # expect: JC501
    async with AsyncClient() as client:
        await client.post("https://mail.example/digest", json={})  # not retried


async def enqueue(event_id: str) -> None:
    async with worker:
        await push_event.enqueue(event_id)
        await notify.enqueue(1).start(delay=3)
