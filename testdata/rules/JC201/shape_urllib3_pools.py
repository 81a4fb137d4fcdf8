"""urllib3's pools write as `requests` does: `urlopen("POST", ...)` or `request("PATCH", ...)` on a
`PoolManager`, an `HTTPConnectionPool` or an `HTTPSConnectionPool` (chosen by the scheme, kept
in an annotated attribute); a GET asks."""

import urllib3
from celery import shared_task


class Transport:
    def __init__(self, base_url):
        pool_cls: type[urllib3.HTTPConnectionPool] = (
            urllib3.HTTPConnectionPool if base_url.startswith("http://") else urllib3.HTTPSConnectionPool
        )
        self._pool: urllib3.HTTPConnectionPool = pool_cls(host="ingest.example", retries=False)
        self.manager = urllib3.PoolManager()

    def send(self, body):
        return self._pool.urlopen("POST", "/v1/events", body=body)

    def patch(self, body):
        return self.manager.request("PATCH", "https://api.example/v1/state", body=body)

    def status(self):
        return self._pool.urlopen("GET", "/v1/status")


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def flush(body):
    transport = Transport("https://ingest.example")
    transport.send(body)  # expect: JC201
    transport.patch(body)  # expect: JC201
    transport.status()
