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


async def warm_up():
    """Runs once at startup: not a periodic job."""
    async with httpx.AsyncClient() as client:
        cache.rates = (await client.get("https://rates.example/latest")).json()
