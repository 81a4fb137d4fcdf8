# jobcheck-test: select=JC201
# The application's retry decorator catches what it is told, built into a tuple at the `except`
# (`except tuple(exception_types)`): the types written at the use decide what is retried.
import asyncio
import functools

import aiohttp
from celery import shared_task


def async_retry(retry_count=2, exception_types=[Exception], retry_interval=0.5):
    def decorator(fn):
        @functools.wraps(fn)
        async def retry(*args, **kwargs):
            for count in range(1, retry_count + 1):
                try:
                    return await fn(*args, **kwargs)
                except tuple(exception_types):
                    await asyncio.sleep(retry_interval)
            raise RuntimeError("gave up")
        return retry
    return decorator


@async_retry(retry_count=3, exception_types=[asyncio.TimeoutError, EnvironmentError])
async def send_log(session: aiohttp.ClientSession, payload):
    async with session.post("https://logs.example/ingest", json=payload) as resp:  # expect: JC201
        if resp.status != 200:
            raise EnvironmentError("log server refused")


@async_retry(exception_types=[KeyError])
async def send_metric(session: aiohttp.ClientSession, payload):
    """Retried on a KeyError, which nothing here raises after the POST: no repeat."""
    async with session.post("https://metrics.example/ingest", json=payload) as resp:
        return resp.status


@shared_task
def flush(payload):
    async def run():
        async with aiohttp.ClientSession() as session:
            await send_log(session, payload)
            await send_metric(session, payload)
    asyncio.run(run())
