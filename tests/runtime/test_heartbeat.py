"""A heartbeat that cannot renew its lease says so (``Heartbeat.lost``) and ``hold()`` raises at
exit; one that gets through again after a brief outage (a terminated connection, a lock held
for a moment) keeps the lease. Outages are real: a SQLite write lock held by another
connection, pg_terminate_backend, CLIENT KILL, and a proxy to PostgreSQL or Redis cut off."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from jobcheck.runtime import (
    LeaseLostError,
    PostgresLeases,
    RedisLeases,
    SQLiteLeases,
    open_backend,
)

from .tcp_proxy import TcpProxy


class SQLiteOutage:
    """Another connection takes the file's write lock: renewals fail with "database is locked"."""

    def __init__(self, folder: Path, tag: str) -> None:
        self.path = folder / "leases.db"
        self.backend = SQLiteLeases(self.path, busy_timeout=0.05)
        self._locker: sqlite3.Connection | None = None

    def cut(self) -> None:
        self._locker = sqlite3.connect(self.path, isolation_level=None)
        self._locker.execute("BEGIN EXCLUSIVE")

    def interrupt(self) -> None:
        self.cut()
        time.sleep(0.3)
        self.close_locker()

    def close_locker(self) -> None:
        if self._locker is not None:
            self._locker.close()
            self._locker = None

    def close(self) -> None:
        self.close_locker()
        self.backend.close()


class PostgresOutage:
    """The backend talks through a proxy: interrupt terminates its session, cut the proxy."""

    def __init__(self, dsn: str, tag: str) -> None:
        from psycopg.conninfo import conninfo_to_dict, make_conninfo

        self.dsn, self.tag = dsn, tag
        server = conninfo_to_dict(dsn)
        self.proxy = TcpProxy(str(server.get("host", "127.0.0.1")), int(server.get("port", 5432)))
        proxied = make_conninfo(dsn, host="127.0.0.1", port=self.proxy.port, application_name=tag, connect_timeout=3)
        self.backend = PostgresLeases(proxied)
        self.cut = self.proxy.cut

    def interrupt(self) -> None:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as admin:
            killed = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = %s", (self.tag,)
            ).fetchone()[0]
        assert killed == 1

    def close(self) -> None:
        self.backend.close()
        self.proxy.cut()


class RedisOutage:
    """The backend talks through a proxy: interrupt is CLIENT KILL, cut the proxy."""

    def __init__(self, url: str, tag: str) -> None:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self.url, self.tag = url, tag
        server = urlsplit(url)
        self.proxy = TcpProxy(server.hostname or "127.0.0.1", server.port or 6379)
        db = int(server.path.strip("/") or 0)
        # No retries inside redis-py: a renewal fails at once (a hanging one is tested below).
        client = redis.Redis(port=self.proxy.port, db=db, client_name=tag, socket_timeout=3, socket_connect_timeout=3,
                             retry=Retry(NoBackoff(), 0))
        self.backend = RedisLeases(client)
        self.cut = self.proxy.cut

    def interrupt(self) -> None:
        import redis

        admin = redis.Redis.from_url(self.url)
        try:
            ids = [c["id"] for c in admin.client_list() if c.get("name") == self.tag]
            assert len(ids) == 1
            admin.client_kill_filter(_id=ids[0])
        finally:
            admin.close()

    def close(self) -> None:
        self.backend.client.close()
        self.proxy.cut()


@pytest.fixture(params=["sqlite", "postgres", "redis"])
def outage(request: pytest.FixtureRequest, tmp_path: Path, resource: str) -> Iterator[Any]:
    if request.param == "sqlite":
        made: Any = SQLiteOutage(tmp_path, resource)
    elif request.param == "postgres":
        made = PostgresOutage(request.getfixturevalue("postgres_dsn"), resource)
    else:
        made = RedisOutage(request.getfixturevalue("redis_url"), resource)
    yield made
    made.close()


def wait_for(condition: Callable[[], Any], timeout: float = 10.0) -> Any:
    give_up = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < give_up, "timed out"
        time.sleep(0.02)
    return value


@contextmanager
def beating(backend: Any, resource: str, ttl: float) -> Iterator[Any]:
    """A lease under a heartbeat renewing it every 0.1 s, a couple of renewals in."""
    beat = backend.keep_alive(backend.acquire(resource, ttl), 0.1)
    try:
        time.sleep(0.15)
        yield beat
    finally:
        beat.stop()


def test_a_brief_outage_does_not_lose_the_lease(outage: Any, resource: str) -> None:
    with beating(outage.backend, resource, 1.0) as beat:
        outage.interrupt()
        back = time.monotonic()
        wait_for(lambda: beat.lease.deadline > back + beat.lease.ttl)  # a renewal begun after the outage
        assert beat.lost is None
        info = outage.backend.get(resource)
        assert info.held and (info.holder, info.token) == (beat.lease.holder, beat.lease.token)
    assert beat.lost is None


def test_a_heartbeat_that_cannot_reach_the_store_reports_the_lease_lost(outage: Any, resource: str) -> None:
    with beating(outage.backend, resource, 0.6) as beat:
        outage.cut()
        lost = wait_for(lambda: beat.lost)
        assert isinstance(lost, LeaseLostError) and lost.token == beat.lease.token
        assert beat.lease.expired  # reported when the lease ran out, not at the first error
        assert isinstance(lost.__cause__, Exception)  # the store's error, for the traceback
    assert beat.lost is lost  # it stays lost


def test_hold_raises_at_exit_when_no_renewal_got_through(outage: Any, resource: str) -> None:
    with pytest.raises(LeaseLostError) as info, outage.backend.hold(resource, 0.6, renew_every=0.1) as lease:
        outage.cut()
        wait_for(lambda: lease.expired)
        time.sleep(0.15)
    assert info.value.resource == resource and info.value.__cause__ is not None


def test_hold_raises_at_exit_when_the_store_took_the_lease_back(lease_url: str, resource: str) -> None:
    backend = open_backend(lease_url)
    try:
        with pytest.raises(LeaseLostError), backend.hold(resource, 5, renew_every=0.05):
            backend.clear(resource)  # an operator frees it; the next renewal is refused
            time.sleep(0.25)
        with pytest.raises(KeyError), backend.hold(resource, 5, renew_every=0.05):  # the body's error wins
            backend.clear(resource)
            time.sleep(0.25)
            raise KeyError("the body's")
        with backend.hold(resource, 5, renew_every=0.05):  # and one that was kept raises nothing
            time.sleep(0.15)
        assert not backend.get(resource).held
    finally:
        backend.close()


class HangingBackend(SQLiteLeases):
    """Its renewals block until released, as a call to an unreachable server does."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.hang = threading.Event()
        self.release_hang = threading.Event()

    def _renew(self, resource: str, token: int, holder: str, ttl: float) -> Any:
        if self.hang.is_set():
            self.release_hang.wait(10)
            raise TimeoutError("the server did not answer")
        return super()._renew(resource, token, holder, ttl)


def test_a_renewal_that_hangs_past_the_deadline_is_reported_at_the_deadline(tmp_path: Path, resource: str) -> None:
    backend = HangingBackend(tmp_path / "leases.db")
    lease = backend.acquire(resource, 0.5)
    beat = backend.keep_alive(lease, 0.1)
    try:
        backend.hang.set()
        lost = wait_for(lambda: beat.lost, timeout=5)
        assert beat.lease.expired and lost.__cause__ is None  # no error yet: the call still hangs
        backend.release_hang.set()
    finally:
        beat.stop()
        backend.close()
    assert beat.lost is lost
