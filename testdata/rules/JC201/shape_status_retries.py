# jobcheck-test: select=JC201
# A webhook client's own retry loop: a network error and a 5xx answer go round (`continue`), a
# success returns, anything else raises. What follows the `try` goes round only on failures and
# ends by raising: a retry loop, whose POST a lost answer repeats.
import asyncio

import aiohttp


class WebhookError(Exception):
    pass


class WebhookClient:
    def __init__(self, session: aiohttp.ClientSession, url: str):
        self._session = session
        self.url = url

    async def send(self, body):
        attempt = 0
        while True:
            attempt += 1
            try:
                async with self._session.post(self.url, json=body) as response:  # expect: JC201
                    status = response.status
            except (aiohttp.ClientError, asyncio.TimeoutError):
                if attempt > 3:
                    raise
                await asyncio.sleep(attempt)
                continue
            if status in (200, 204):
                return status
            if status >= 500 and attempt <= 3:
                await asyncio.sleep(attempt)
                continue
            raise WebhookError(status)
