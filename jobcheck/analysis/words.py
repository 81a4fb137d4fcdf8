"""The words of identifiers, and the words that say what a call does with a queue: shared by the
summary (which reads one file) and everything after it."""

from __future__ import annotations

import re
from functools import lru_cache

# The first word of a call that takes the next items of a queue (`api.poll_tool_calls()`,
# `claim_jobs(...)`, `dequeue_batch()`): what a round then works on, as a queue's `get`.
TAKING_WORDS = ("poll", "dequeue", "take", "receive", "recv", "claim", "lease", "reserve", "pop")


@lru_cache(maxsize=4096)
def name_words(name: str) -> tuple[str, ...]:
    """The words of an identifier, lower case: `wait_until` -> wait, until; `waitForReady` ->
    wait, for, ready; `proxy_with_retry` -> proxy, with, retry."""
    return tuple(w.lower() for w in re.findall(r"[A-Za-z][a-z0-9]*", name.replace("_", " ")))

# The HTTP methods that only read.
HTTP_READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
