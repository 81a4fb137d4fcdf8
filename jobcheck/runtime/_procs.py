"""Per-process connections: a forked child must never reuse its parent's connection."""

from __future__ import annotations

import os
import re
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

T = TypeVar("T")

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$")


def check_identifier(name: str) -> str:
    """Table names are spliced into SQL, so only plain (optionally schema-qualified) names pass."""
    if not _IDENTIFIER.match(name):
        raise ValueError(f"not a plain SQL identifier: {name!r}")
    return name


class ProcessLocal(Generic[T]):
    """A lazily opened connection plus a lock, reset in a forked child.

    Sharing a SQLite or PostgreSQL connection across fork corrupts both sides, and a lock held
    by another thread at fork time would never be released in the child; so the child starts
    with neither and opens its own connection on first use.
    """

    def __init__(self, factory: Callable[[], T], closer: Callable[[T], None]) -> None:
        self._factory = factory
        self._closer = closer
        self._reset()
        if hasattr(os, "register_at_fork"):
            ref = weakref.ref(self)
            os.register_at_fork(after_in_child=lambda: _reset_if_alive(ref))

    def _reset(self) -> None:
        self.lock = threading.RLock()
        self._value: T | None = None

    @contextmanager
    def use(self) -> Iterator[T]:
        with self.lock:
            if self._value is None:
                self._value = self._factory()
            try:
                yield self._value
            except BaseException:
                # The connection may be broken (server restart, interrupted protocol):
                # drop it so the next call reconnects instead of failing forever.
                if self._broken(self._value):
                    self.close()
                raise

    @staticmethod
    def _broken(value: object) -> bool:
        # psycopg marks a lost connection with .broken (and .closed); sqlite3 has neither.
        return getattr(value, "broken", False) is True or getattr(value, "closed", False) is True

    def close(self) -> None:
        with self.lock:
            value, self._value = self._value, None
            if value is not None:
                try:
                    self._closer(value)
                except Exception:  # closing a dead connection must not mask the real error
                    pass


def _reset_if_alive(ref: "weakref.ref[ProcessLocal]") -> None:
    obj = ref()
    if obj is not None:
        obj._reset()  # deliberately leak the parent's connection object: never touch it here
