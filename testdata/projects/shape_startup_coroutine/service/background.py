# jobcheck-test: select=JC201,JC501
"""Loops the service runs beside its requests, started when it starts."""
import asyncio
import logging

import httpx

from service import cache

logger = logging.getLogger(__name__)


async def refresh_rates_forever():  # expect: JC501
    async with httpx.AsyncClient() as client:
        while True:
            response = await client.get("https://rates.example/latest")
            cache.rates = response.json()
            await asyncio.sleep(300)


async def report_usage_forever(interval=60):  # expect: JC501
    while True:
        try:
            async with httpx.AsyncClient() as client:
                await client.post("https://billing.example/usage", json=cache.usage)
        except httpx.HTTPError:
            logger.exception("usage report failed; next round in %s s", interval)
        await asyncio.sleep(interval)


async def try_reconnect_loop():
    """Started at startup: runs the loop below, logging how it ended. The loop is the job."""
    try:
        await reconnect_forever()
    except Exception:
        logger.exception("reconnect loop ended")


async def reconnect_forever():  # expect: JC501
    while True:
        try:
            await asyncio.sleep(600)
        except asyncio.CancelledError:
            return  # stopped: cancelling the task is how the service shuts it down
        async with httpx.AsyncClient() as client:
            await client.post("https://chat.example/reconnect")


async def try_watch():
    try:
        await watch_until_gone()
    except Exception:
        logger.exception("watch ended")


async def watch_until_gone():
    """Leaves when the stream fails: a watch that ends, not a job repeating until stopped."""
    while True:
        try:
            await asyncio.sleep(5)
        except ConnectionError:
            return
        async with httpx.AsyncClient() as client:
            await client.get("https://chat.example/stream")


async def warm_up():
    """Runs once at startup: not a periodic job."""
    async with httpx.AsyncClient() as client:
        cache.rates = (await client.get("https://rates.example/latest")).json()
