"""Fixtures for the runtime tests: real SQLite files, PostgreSQL and Redis servers.

PostgreSQL and Redis: the servers at JOBCHECK_TEST_POSTGRES_DSN / JOBCHECK_TEST_REDIS_URL when
set; otherwise a throwaway server of this session's own (jobcheck.runtime.servers), started the
first time a test asks for it, on a free port, and removed at the end. Where a server cannot be
had (binaries not installed, client library missing, configured server down) the tests using it
skip locally, but fail when CI is set: CI must never pass by skipping them.
"""

from __future__ import annotations

import importlib
import os
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack
from typing import Any
from urllib.parse import urlsplit

import pytest

# The fixture is also registered through the pytest11 entry point when jobcheck is installed;
# importing it here makes these tests work from a plain checkout too.
from jobcheck.runtime.pytest_plugin import jobcheck_harness  # noqa: F401
from jobcheck.runtime.servers import (
    ServerNotInstalled,
    postgres_binaries,
    redis_binary,
    throwaway_postgres,
    throwaway_redis,
)

POSTGRES_ENV = "JOBCHECK_TEST_POSTGRES_DSN"
REDIS_ENV = "JOBCHECK_TEST_REDIS_URL"
INSTALL = "bash .ci/install-servers.sh"

STRESS_FIGURES = pytest.StashKey[list[Any]]()
SERVERS_USED = pytest.StashKey[list[str]]()


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _unavailable(message: str) -> None:
    if in_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def _server(request: pytest.FixtureRequest, *, what: str, env: str, client: str,
            answers: Callable[[str], None], throwaway: Callable[[], AbstractContextManager[str]]) -> Iterator[str]:
    """The configured server if ``env`` is set, else a throwaway one for this session."""
    try:
        importlib.import_module(client)
    except ImportError as exc:
        _unavailable(f"{what} tests need the {client} package ({exc})")
    used = request.config.stash[SERVERS_USED]
    configured = os.environ.get(env)
    if configured:
        try:
            answers(configured)
        except Exception as exc:  # noqa: BLE001 - any failure means "no server"
            _unavailable(f"{what} at {env}={_without_password(configured)} is not reachable ({type(exc).__name__}: {exc})")
        used.append(f"{what}: {_without_password(configured)} (from {env})")
        yield configured
        return
    with ExitStack() as stack:
        started = time.monotonic()
        try:
            url = stack.enter_context(throwaway())
        except ServerNotInstalled as exc:
            _unavailable(f"{what}: {exc}; install it ({INSTALL}) or set {env} to a running server")
        used.append(f"{what}: {url} (throwaway, started in {time.monotonic() - started:.1f} s)")
        yield url


def _without_password(url: str) -> str:
    """The URL as the summary may show it: CI logs are read by more people than its secrets."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)).geturl()


def _postgres_answers(dsn: str) -> None:
    import psycopg

    psycopg.connect(dsn, connect_timeout=3).close()


def _redis_answers(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=3)
    try:
        client.ping()
    finally:
        client.close()


@pytest.fixture(scope="session")
def postgres_dsn(request: pytest.FixtureRequest) -> Iterator[str]:
    yield from _server(request, what="PostgreSQL", env=POSTGRES_ENV, client="psycopg",
                       answers=_postgres_answers, throwaway=throwaway_postgres)


@pytest.fixture(scope="session")
def redis_url(request: pytest.FixtureRequest) -> Iterator[str]:
    yield from _server(request, what="Redis", env=REDIS_ENV, client="redis",
                       answers=_redis_answers, throwaway=throwaway_redis)


def _installed(find: Callable[[], object]) -> None:
    try:
        find()
    except ServerNotInstalled as exc:
        _unavailable(f"{exc}; install it: {INSTALL}")


@pytest.fixture
def postgres_installed() -> None:
    """For tests that start PostgreSQL servers of their own."""
    _installed(postgres_binaries)


@pytest.fixture
def redis_installed() -> None:
    """For tests that start Redis servers of their own."""
    _installed(redis_binary)


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
    config.stash[SERVERS_USED] = []


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    servers = config.stash.get(SERVERS_USED, [])
    if servers:
        terminalreporter.section("jobcheck test servers")
        for line in servers:
            terminalreporter.write_line(line)
    figures = config.stash.get(STRESS_FIGURES, [])
    if figures:
        from jobcheck.runtime.stress import format_table

        terminalreporter.section("jobcheck lease stress")
        for line in format_table(figures).splitlines():
            terminalreporter.write_line(line)
