"""Scaffolding shared by the two invoice jobs: customers, configuration, an HTTP client.

Nothing here is about safety; the two jobs differ only in how they use it.
"""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass
from typing import Any

# (customer id, email address, monthly amount in cents)
CUSTOMERS = [
    ("cus_1", "ada@example.com", 4200),
    ("cus_2", "grace@example.com", 1300),
    ("cus_3", "linus@example.com", 990),
]


@dataclass(frozen=True)
class Config:
    db_path: str  # the application's SQLite database
    api_url: str  # payments, mail and notification API (https://api.example.com in production)
    smtp_host: str = "localhost"
    smtp_port: int = 25
    lease_url: str = ""  # lease store for the safe job: sqlite:///..., postgresql://..., redis://...
    lease_ttl: float = 30.0
    namespace: str = ""  # prefix for lease names when several deployments share a lease store


def post_json(url: str, payload: Any, *, idempotency_key: str | None = None, timeout: float = 10.0) -> Any:
    """POST a JSON body; with ``idempotency_key`` the API performs the request at most once."""
    headers = {"Content-Type": "application/json"}
    if idempotency_key:
        headers["Idempotency-Key"] = idempotency_key
    request = urllib.request.Request(url, data=json.dumps(payload).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read() or b"null")
