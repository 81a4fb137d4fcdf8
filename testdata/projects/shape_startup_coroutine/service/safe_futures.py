"""Coroutines started through the service's own wrapper, which awaits the coroutine it is given
to log its failure: the work started is the coroutine handed in, never the wrapper."""
import asyncio
import logging

import requests


async def safe_wrapper(coro):
    try:
        return await coro
    except asyncio.CancelledError:
        raise
    except Exception:
        logging.getLogger(__name__).error("background task failed", exc_info=True)


def safe_ensure_future(coro, *args, **kwargs):
    return asyncio.ensure_future(safe_wrapper(coro), *args, **kwargs)


class StatusPoller:
    def start(self):
        safe_ensure_future(self.poll_loop())
        asyncio.create_task(safe_wrapper(self.flush_forever()))

    async def poll_loop(self):  # expect: JC501
        while True:
            requests.get("https://status.example/health")
            await asyncio.sleep(30)

    async def flush_forever(self):  # expect: JC501
        while True:
            requests.post("https://status.example/flush", json={})
            await asyncio.sleep(60)
