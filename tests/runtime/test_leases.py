"""Lease semantics, identical on SQLite, PostgreSQL and Redis."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import pytest

from jobcheck.runtime import LeaseHeldError, LeaseLostError, open_backend


@pytest.fixture
def leases(lease_url: str) -> Any:
    backend = open_backend(lease_url)
    yield backend
    backend.close()


def test_tokens_strictly_increase_across_release_clear_and_expiry(leases: Any, resource: str) -> None:
    tokens = []
    lease = leases.acquire(resource, 5)
    tokens.append(lease.token)
    assert leases.release(lease)
    lease = leases.acquire(resource, 5)
    tokens.append(lease.token)
    assert leases.clear(resource).held
    lease = leases.acquire(resource, 0.1)
    tokens.append(lease.token)
    time.sleep(0.2)
    tokens.append(leases.acquire(resource, 5).token)  # takes over the expired lease
    assert tokens == [1, 2, 3, 4]


def test_a_held_lease_is_not_granted_twice(leases: Any, resource: str) -> None:
    first = leases.acquire(resource, 5)
    assert leases.acquire(resource, 5) is None
    with pytest.raises(LeaseHeldError) as info:
        with leases.hold(resource, 5):
            pass
    assert info.value.holder == first.holder
    other = leases.acquire(f"{resource}-other", 5)  # resources are independent
    assert other.token == 1


def test_expired_lease_is_taken_over_and_the_old_holder_loses_it(leases: Any, resource: str) -> None:
    old = leases.acquire(resource, 0.15)
    time.sleep(0.25)
    assert old.expired
    new = leases.acquire(resource, 5)
    assert new is not None and new.token == old.token + 1
    with pytest.raises(LeaseLostError):
        leases.renew(old)
    assert not leases.release(old)  # must not free the new holder's lease
    assert leases.get(resource).holder == new.holder


def test_an_expired_lease_is_never_renewed_even_if_nobody_took_it(leases: Any, resource: str) -> None:
    lease = leases.acquire(resource, 0.1)
    time.sleep(0.2)
    with pytest.raises(LeaseLostError):
        leases.renew(lease)


def test_renew_extends_the_lease(leases: Any, resource: str) -> None:
    lease = leases.acquire(resource, 0.6)
    time.sleep(0.4)
    lease = leases.renew(lease, 0.6)
    time.sleep(0.4)  # past the original expiry, inside the renewed one
    assert leases.acquire(resource, 5) is None
    assert leases.get(resource).held
    assert not lease.expired


def test_release_frees_at_once(leases: Any, resource: str) -> None:
    lease = leases.acquire(resource, 30)
    assert leases.release(lease)
    assert not leases.release(lease)  # a second release is a no-op
    assert leases.acquire(resource, 30).token == lease.token + 1


def test_clear_frees_someone_elses_stuck_lease(leases: Any, resource: str) -> None:
    stuck = leases.acquire(resource, 300)
    before = leases.clear(resource)
    assert before.held and before.holder == stuck.holder and before.token == stuck.token
    after = leases.get(resource)
    assert not after.held and after.holder is None and after.token == stuck.token
    assert leases.acquire(resource, 5).token == stuck.token + 1
    assert leases.clear(f"{resource}-never") is None


def test_get_and_list_report_the_store_state(leases: Any, resource: str) -> None:
    assert leases.get(resource) is None
    lease = leases.acquire(resource, 30)
    info = leases.get(resource)
    assert (info.resource, info.token, info.holder, info.held) == (resource, 1, lease.holder, True)
    assert info.expires_at is not None
    listed = {i.resource: i for i in leases.list()}
    assert listed[resource].held


def test_acquire_waits_for_expiry(leases: Any, resource: str) -> None:
    leases.acquire(resource, 0.3)
    started = time.monotonic()
    lease = leases.acquire(resource, 5, wait=5)
    waited = time.monotonic() - started
    assert lease is not None and lease.token == 2
    assert 0.1 < waited < 3
    assert leases.acquire(f"{resource}", 5, wait=0.1) is None  # gives up after the wait


@pytest.mark.parametrize("ttl", [0, -1, float("inf"), float("nan")])
def test_a_lease_always_has_a_finite_ttl(leases: Any, resource: str, ttl: float) -> None:
    with pytest.raises(ValueError):
        leases.acquire(resource, ttl)


def test_hold_with_heartbeat_keeps_the_lease_past_its_ttl(leases: Any, resource: str) -> None:
    with leases.hold(resource, 0.5, renew_every=0.1) as lease:
        time.sleep(0.8)
        assert leases.acquire(resource, 5) is None
        assert leases.get(resource).token == lease.token
    assert not leases.get(resource).held  # released on exit


def test_a_dead_holders_lease_expires(lease_url: str, resource: str) -> None:
    """A runner killed with SIGKILL never releases; its lease expires by itself."""
    pid = os.fork()
    if pid == 0:  # the child: take the lease, then die without any cleanup
        try:
            backend = open_backend(lease_url)
            backend.acquire(resource, 1.0)
        finally:
            os.kill(os.getpid(), signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    backend = open_backend(lease_url)
    try:
        info = backend.get(resource)
        assert info is not None and info.token == 1
        if info.held:  # usually: the kill came well within the TTL
            assert backend.acquire(resource, 5) is None
        lease = backend.acquire(resource, 5, wait=3)
        assert lease is not None and lease.token == 2
    finally:
        backend.close()


def test_a_backend_used_before_fork_works_in_the_child(lease_url: str, resource: str) -> None:
    backend = open_backend(lease_url)
    try:
        backend.release(backend.acquire(resource, 5))  # opens the parent's connection
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                lease = backend.acquire(resource, 5)  # must not reuse the parent's connection
                code = 0 if lease is not None and lease.token == 2 and backend.release(lease) else 3
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == 0
        lease = backend.acquire(resource, 5)  # the parent's connection still works
        assert lease.token == 3
    finally:
        backend.close()


def test_backend_urls() -> None:
    from jobcheck.runtime import PostgresLeases, RedisLeases, SQLiteLeases

    assert isinstance(open_backend("sqlite:///rel.db"), SQLiteLeases)
    assert open_backend("sqlite:///rel.db").path == "rel.db"
    assert open_backend("sqlite:////abs/x.db").path == "/abs/x.db"
    assert open_backend("/tmp/plain.db").path == "/tmp/plain.db"
    assert isinstance(open_backend("postgresql://u@h/db"), PostgresLeases)  # connects lazily
    assert isinstance(open_backend("redis://127.0.0.1:1/0"), RedisLeases)
    for bad in ("sqlite://x.db", "mysql://h/db", "sqlite:///"):
        with pytest.raises(ValueError):
            open_backend(bad)
    with pytest.raises(ValueError):
        SQLiteLeases("x.db", table="leases; DROP TABLE x")


def test_heartbeat_reports_a_lost_lease(leases: Any, resource: str) -> None:
    lease = leases.acquire(resource, 0.5)
    beat = leases.keep_alive(lease, 0.05)
    try:
        time.sleep(0.15)
        assert beat.lost is None and beat.lease.token == lease.token
        leases.clear(resource)  # an operator frees it
        time.sleep(0.2)
        assert isinstance(beat.lost, LeaseLostError)
    finally:
        beat.stop()
