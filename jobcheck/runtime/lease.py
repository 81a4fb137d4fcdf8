"""Leases with fencing tokens: the interface every backend implements.

A lease is a time-limited claim on a named resource. Each successful acquisition is issued a
*fencing token* strictly greater than every token issued earlier for that resource, by any
process on any machine. A lease is only ever a hint to its holder ("you probably are the only
runner"); the guarantee comes from the store, which rejects writes carrying a token older than
one it has already seen (see :mod:`jobcheck.runtime.fencing`).

Backends keep the token counter forever (release and clear keep it), so tokens never repeat,
and every lease has a finite TTL, so a lease held by a dead runner always expires.
"""

from __future__ import annotations

import os
import random
import socket
import threading
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime

from .errors import LeaseHeldError, LeaseLostError

__all__ = ["Heartbeat", "Lease", "LeaseBackend", "LeaseInfo", "new_holder_id"]


def new_holder_id() -> str:
    """A holder id unique to one acquisition attempt: host, pid and a random suffix."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"


def _check_ttl(ttl: float) -> float:
    ttl = float(ttl)
    # A lease without a finite positive TTL would outlive a dead holder forever.
    if not (0 < ttl < float("inf")):
        raise ValueError(f"lease ttl must be a positive finite number of seconds, got {ttl!r}")
    return ttl


@dataclass(frozen=True)
class Lease:
    """A lease held by this process.

    ``deadline`` is on this process's monotonic clock and is taken *before* the request was
    sent, so it never lies later than the store's own expiry: when ``expired`` is true the
    store may already have given the resource to someone else.
    """

    resource: str
    token: int
    holder: str
    ttl: float
    deadline: float = field(compare=False)
    expires_at: datetime | None = field(default=None, compare=False)  # store's clock, informational

    @property
    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    @property
    def expired(self) -> bool:
        return self.remaining <= 0


@dataclass(frozen=True)
class LeaseInfo:
    """What a store knows about a resource (for ``show`` and ``clear``)."""

    resource: str
    token: int  # the highest token issued so far
    holder: str | None  # None when free
    expires_at: datetime | None  # on the store's clock
    held: bool  # a holder is set and, by the store's clock, its lease has not expired


class LeaseBackend(ABC):
    """Acquire, renew and release leases on named resources."""

    #: short name used in messages and the CLI ("sqlite", "postgres", "redis")
    kind: str = "abstract"

    # -- the primitives each backend implements (one atomic store operation each)

    @abstractmethod
    def _try_acquire(self, resource: str, ttl: float, holder: str) -> tuple[int, datetime | None] | None:
        """Take the lease if it is free or expired; return (token, expires_at) or None."""

    @abstractmethod
    def _renew(self, resource: str, token: int, holder: str, ttl: float) -> tuple[bool, datetime | None]:
        """Extend an unexpired lease still held with this token: (renewed, expires_at)."""

    @abstractmethod
    def _release(self, resource: str, token: int, holder: str) -> bool:
        """Free the lease if it is still held with this token."""

    @abstractmethod
    def clear(self, resource: str) -> LeaseInfo | None:
        """Free a stuck lease whoever holds it; the token counter is kept.

        Returns what was there before (None if the resource was never leased). The next
        acquisition gets a higher token, and its first fenced write makes every write of the
        cleared holder stale.
        """

    @abstractmethod
    def get(self, resource: str) -> LeaseInfo | None:
        """The current state of one resource, or None if it was never leased."""

    @abstractmethod
    def list(self) -> list[LeaseInfo]:
        """Every resource this store has issued tokens for, sorted by name."""

    def close(self) -> None:  # pragma: no cover - trivial default
        """Release connections held by this object."""

    def __enter__(self) -> LeaseBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the public API, shared by all backends

    def acquire(
        self, resource: str, ttl: float, *, wait: float = 0.0, holder: str | None = None
    ) -> Lease | None:
        """Acquire ``resource`` for ``ttl`` seconds; None if still held after ``wait`` seconds.

        An expired lease is taken over. Polls with jittered backoff while waiting.
        """
        ttl = _check_ttl(ttl)
        holder = holder or new_holder_id()
        give_up = time.monotonic() + max(0.0, wait)
        delay = 0.005
        while True:
            started = time.monotonic()
            got = self._try_acquire(resource, ttl, holder)
            if got is not None:
                token, expires_at = got
                return Lease(resource, token, holder, ttl, started + ttl, expires_at)
            left = give_up - time.monotonic()
            if left <= 0:
                return None
            time.sleep(min(left, delay * (0.5 + random.random())))
            delay = min(delay * 2, 0.25)

    def renew(self, lease: Lease, ttl: float | None = None) -> Lease:
        """Extend ``lease`` by ``ttl`` (default: its own TTL) from now.

        Raises :class:`LeaseLostError` if it already expired, was released, cleared or taken
        over: an expired lease is never revived, even if nobody took it in the meantime.
        """
        ttl = _check_ttl(lease.ttl if ttl is None else ttl)
        started = time.monotonic()
        renewed, expires_at = self._renew(lease.resource, lease.token, lease.holder, ttl)
        if not renewed:
            raise LeaseLostError(lease.resource, lease.token)
        return replace(lease, ttl=ttl, deadline=started + ttl, expires_at=expires_at)

    def release(self, lease: Lease) -> bool:
        """Give the lease back; False if it was no longer ours (expired and taken, cleared)."""
        return self._release(lease.resource, lease.token, lease.holder)

    @contextmanager
    def hold(
        self,
        resource: str,
        ttl: float,
        *,
        wait: float = 0.0,
        renew_every: float | None = None,
    ) -> Iterator[Lease]:
        """Hold a lease for the body of a ``with`` block; raise LeaseHeldError if unavailable.

        With ``renew_every`` a background heartbeat renews the lease, and if it lost the lease
        (or could not renew it before it ran out) the block raises that ``LeaseLostError`` when
        it ends, unless the body is already raising. Read ``lost`` while the work runs from a
        ``Heartbeat`` of your own (:meth:`keep_alive`). The body must still pass
        ``lease.token`` to fenced writes: a heartbeat cannot renew a lease while the whole
        process is paused.
        """
        lease = self.acquire(resource, ttl, wait=wait)
        if lease is None:
            info = self.get(resource)
            raise LeaseHeldError(resource, info.holder if info else None)
        beat = self.keep_alive(lease, renew_every) if renew_every else None
        body_raised = True
        try:
            yield lease
            body_raised = False
        finally:
            lost = None
            if beat is not None:
                beat.stop()
                lease, lost = beat.lease, beat.lost
            if lost is None:
                self.release(lease)
            elif not body_raised:
                # Refused or past its deadline: nothing to release, and the store may not answer.
                raise lost

    def keep_alive(self, lease: Lease, every: float) -> Heartbeat:
        """Start a daemon thread renewing ``lease`` every ``every`` seconds."""
        return Heartbeat(self, lease, every)


class Heartbeat:
    """Renews a lease every ``every`` seconds in a daemon thread until stopped or lost.

    A renewal the store refuses (expired, cleared, taken over) ends it at once. A renewal that
    fails (connection terminated, server down) is retried every period while the lease's own
    deadline lasts: backends reconnect, and a lease renewed before its deadline was never lost.
    ``lost`` is a :class:`LeaseLostError` from the moment either happens (also while a renewal
    hangs past the deadline), its ``__cause__`` the store's last error; it never goes back to
    None.
    """

    def __init__(self, backend: LeaseBackend, lease: Lease, every: float) -> None:
        if every <= 0 or every >= lease.ttl:
            raise ValueError("renew interval must be positive and shorter than the ttl")
        self.backend = backend
        self.lease = lease
        self._every = every
        self._lost: LeaseLostError | None = None
        self._failure: Exception | None = None  # the last renewal's error, None after a success
        self._stopped_at: float | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"lease-heartbeat:{lease.resource}", daemon=True)
        self._thread.start()

    @property
    def lost(self) -> LeaseLostError | None:
        """Why the lease is no longer known to be held, or None while it is."""
        with self._lock:
            now = time.monotonic() if self._stopped_at is None else self._stopped_at
            if self._lost is None and self.lease.deadline <= now:
                self._lost = LeaseLostError(self.lease.resource, self.lease.token, "no renewal got through before it ran out")
                self._lost.__cause__ = self._failure
            return self._lost

    def _run(self) -> None:
        """Renew the lease every `every` seconds until stopped or lost.

        Reliability:
            Runs twice: one thread per Heartbeat; a second renewer of the same lease renews it too (the token is the same).
            Overlaps: no; one loop, one renewal at a time.
            Dies mid-run: the lease is not renewed and runs out; `lost` says so and the fencing token stops stale writes.
            Retries: a failed renewal is tried again next round, until the deadline; a lost lease ends the loop.
            Idempotent: yes; a renewal extends the deadline of the token it holds.
        """
        while not self._stop.wait(self._every):
            if self.lost is not None:  # past the deadline: renewing now could not undo a takeover
                return
            try:
                self.lease = self.backend.renew(self.lease)
                self._failure = None
            except LeaseLostError as exc:
                with self._lock:
                    self._lost = self._lost or exc
                return
            except Exception as exc:  # noqa: BLE001 - any failure to renew; retried until the deadline
                self._failure = exc

    def stop(self) -> None:
        with self._lock:
            if self._stopped_at is None:
                self._stopped_at = time.monotonic()  # `lost` judges the deadline as of now
        self._stop.set()
        self._thread.join()
