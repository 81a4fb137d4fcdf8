"""Exceptions raised by leases, fencing and the verification harness."""

from __future__ import annotations


class LeaseError(Exception):
    """Base class for lease problems."""


class LeaseHeldError(LeaseError):
    """The lease is held by another runner and could not be acquired in time."""

    def __init__(self, resource: str, holder: str | None = None) -> None:
        self.resource = resource
        self.holder = holder
        who = f" by {holder}" if holder else ""
        super().__init__(f"lease on {resource!r} is held{who}")


class LeaseLostError(LeaseError):
    """A renew found the lease expired, released, cleared or taken over, or no renewal got
    through to the store before the lease ran out (``reason`` says which, ``__cause__`` holds
    the store's last error)."""

    def __init__(self, resource: str, token: int, reason: str | None = None) -> None:
        self.resource = resource
        self.token = token
        self.reason = reason
        why = f": {reason}" if reason else ""
        super().__init__(f"lease on {resource!r} with token {token} is no longer held{why}")


class NoSuchLeaseStore(LeaseError):
    """A lease store opened for reading only (``create=False``) does not exist."""


class StaleTokenError(Exception):
    """The store rejected a write whose fencing token is older than one it has already seen.

    The write was not applied: the SQL helpers abort the caller's transaction, the Redis
    script performs no write.
    """

    def __init__(self, resource: str, token: int, seen: int | None = None) -> None:
        self.resource = resource
        self.token = token
        self.seen = seen
        newer = f"; the store has seen token {seen}" if seen is not None else ""
        super().__init__(f"stale fencing token {token} for {resource!r}{newer}")


class FencingNotInstalled(RuntimeError):
    """The fencing table (and, on PostgreSQL, function) is missing: call install_fencing()."""


class InjectedFailure(Exception):
    """Raised inside a job by the verification harness to force a failure mid-run."""
