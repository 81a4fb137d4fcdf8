"""Fixtures for the runtime tests: real SQLite files, PostgreSQL and Redis servers.

PostgreSQL and Redis are reached at JOBCHECK_TEST_POSTGRES_DSN / JOBCHECK_TEST_REDIS_URL
(defaults match .ci/services.sh). Without a server the tests using it skip locally, but fail
when CI is set: CI must never pass by skipping them.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

# The fixture is also registered through the pytest11 entry point when jobcheck is installed;
# importing it here makes these tests work from a plain checkout too.
from jobcheck.runtime.pytest_plugin import jobcheck_harness  # noqa: F401

POSTGRES_DSN = os.environ.get("JOBCHECK_TEST_POSTGRES_DSN", "postgresql://jobcheck:jobcheck@127.0.0.1:5432/jobcheck")
REDIS_URL = os.environ.get("JOBCHECK_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")

STRESS_FIGURES = pytest.StashKey[list[Any]]()


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _unavailable(what: str, exc: BaseException) -> None:
    message = f"{what} is not reachable ({type(exc).__name__}: {exc}); start it with: bash .ci/services.sh"
    if in_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def postgres_dsn() -> str:
    try:
        import psycopg

        psycopg.connect(POSTGRES_DSN, connect_timeout=3).close()
    except Exception as exc:  # noqa: BLE001 - any failure means "no server"
        _unavailable("PostgreSQL", exc)
    return POSTGRES_DSN


@pytest.fixture(scope="session")
def redis_url() -> str:
    try:
        import redis

        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
        client.ping()
        client.close()
    except Exception as exc:  # noqa: BLE001
        _unavailable("Redis", exc)
    return REDIS_URL


@pytest.fixture
def pg_conn(postgres_dsn: str) -> Iterator[Any]:
    import psycopg

    conn = psycopg.connect(postgres_dsn, autocommit=True)
    yield conn
    conn.close()


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[Any]:
    import redis

    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def resource() -> str:
    """A resource name no other test (or earlier run on a shared server) has used."""
    return f"test-{uuid.uuid4().hex[:12]}"


@pytest.fixture(params=["sqlite", "postgres", "redis"])
def lease_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'leases.db'}"
    if request.param == "postgres":
        return request.getfixturevalue("postgres_dsn")
    return request.getfixturevalue("redis_url")


def pytest_configure(config: pytest.Config) -> None:
    config.stash[STRESS_FIGURES] = []


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    figures = config.stash.get(STRESS_FIGURES, [])
    if figures:
        from jobcheck.runtime.stress import format_table

        terminalreporter.section("jobcheck lease stress")
        for line in format_table(figures).splitlines():
            terminalreporter.write_line(line)
