"""fence/fenced_transaction behave the same in every transaction mode of sqlite3 and psycopg 3,
and RedisFence the same way: a valid token commits every write, a stale one writes nothing of
the caller's transaction. The scenarios are in fencing_scenarios.py; this file runs each
against real SQLite files (every isolation level, and Python 3.12's autocommit values, under
another interpreter when this one is older), the real PostgreSQL and the real Redis."""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from jobcheck.runtime import (
    RedisFence,
    StaleTokenError,
    fenced_transaction,
    install_fencing,
)

from .conftest import in_ci
from .fencing_scenarios import (
    AUTOCOMMIT_MODES,
    LEGACY_MODES,
    SCENARIOS,
    run_sqlite_case,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("mode", LEGACY_MODES)
def test_sqlite_isolation_levels(mode: str, scenario: str, tmp_path: Path) -> None:
    run_sqlite_case(mode, LEGACY_MODES[mode], scenario, tmp_path)


# ----------------------------------------------------------------------------- Python 3.12 autocommit


def _newer_python() -> str | None:
    """An interpreter with sqlite3's Connection.autocommit (3.12+), to run the cases in."""
    candidates = [os.environ.get("JOBCHECK_TEST_PYTHON312"), *map(shutil.which, ("python3.14", "python3.13", "python3.12"))]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.1[2-9]*/bin/python")), reverse=True)
    probe = "import sqlite3, sys; sys.exit(not hasattr(sqlite3, 'LEGACY_TRANSACTION_CONTROL'))"
    for python in filter(None, candidates):
        # A pyenv shim exists for versions it will not run: ask each one.
        if subprocess.run([python, "-c", probe], capture_output=True, timeout=30, check=False).returncode == 0:
            return python
    return None


@pytest.fixture(scope="module")
def autocommit_results() -> dict[tuple[str, str], str | None]:
    """mode, scenario -> the traceback of a failed case (None: passed), all run at once."""
    if sys.version_info >= (3, 12):
        return {}  # run in this process, case by case
    python = _newer_python()
    if python is None:
        message = "sqlite3 autocommit needs Python 3.12+: none found (set JOBCHECK_TEST_PYTHON312)"
        if in_ci():
            pytest.fail(message, pytrace=False)  # CI must never pass by skipping these modes
        pytest.skip(message)
    done = subprocess.run(
        [python, str(REPO / "tests" / "runtime" / "fencing_scenarios.py")],
        env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    cases = [json.loads(line) for line in done.stdout.splitlines()]
    return {(case["mode"], case["scenario"]): case["error"] for case in cases}


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("mode", AUTOCOMMIT_MODES)
def test_sqlite_autocommit_modes(mode: str, scenario: str, autocommit_results: dict, tmp_path: Path) -> None:
    if sys.version_info >= (3, 12):
        run_sqlite_case(mode, AUTOCOMMIT_MODES[mode], scenario, tmp_path)
        return
    assert (mode, scenario) in autocommit_results, "the case did not run"
    error = autocommit_results[(mode, scenario)]
    assert error is None, error


# ----------------------------------------------------------------------------- PostgreSQL


class PostgresStore:
    """One psycopg transaction mode; rows are tagged with the test's resource."""

    name = "postgres"

    def __init__(self, dsn: str, tag: str, *, autocommit: bool, prior_statement: bool, block: bool) -> None:
        import psycopg

        self.dsn, self.tag = dsn, tag
        self.autocommit, self.prior_statement, self.block = autocommit, prior_statement, block
        self.manual = autocommit
        self.driver_error = psycopg.Error

    def connect(self) -> Any:
        import psycopg

        conn = psycopg.connect(self.dsn, autocommit=self.autocommit)
        if self.prior_statement:
            conn.execute("SELECT 1")  # leaves a transaction open
        return conn

    @contextmanager
    def caller_transaction(self, conn: Any) -> Iterator[None]:
        if self.autocommit or self.block:
            with conn.transaction():
                yield
            return
        try:
            yield
        except BaseException:
            conn.rollback()
            raise
        conn.commit()

    documented_block_begins = True

    def documented_block(self, conn: Any) -> Any:
        return self.caller_transaction(conn)

    def insert(self, conn: Any, name: str) -> None:
        conn.execute("INSERT INTO jobcheck_test_modes VALUES (%s, %s)", (self.tag, name))

    def committed(self) -> list[str]:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as reader:
            rows = reader.execute("SELECT name FROM jobcheck_test_modes WHERE tag = %s ORDER BY name", (self.tag,))
            return [n for (n,) in rows]

    def advance(self, resource: str, token: int) -> None:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as other, fenced_transaction(other, resource, token):
            pass


POSTGRES_MODES = {
    "autocommit": {"autocommit": True, "prior_statement": False, "block": True},
    "no_autocommit": {"autocommit": False, "prior_statement": False, "block": False},
    "no_autocommit_after_a_statement": {"autocommit": False, "prior_statement": True, "block": False},
    "no_autocommit_in_transaction_block": {"autocommit": False, "prior_statement": False, "block": True},
}


@pytest.fixture(scope="module")
def postgres_schema(postgres_dsn: str) -> str:
    import psycopg

    with psycopg.connect(postgres_dsn, autocommit=True) as setup:
        install_fencing(setup)
        setup.execute("CREATE TABLE IF NOT EXISTS jobcheck_test_modes (tag text, name text)")
    return postgres_dsn


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("mode", POSTGRES_MODES)
def test_postgres_modes(mode: str, scenario: str, postgres_schema: str, resource: str) -> None:
    store = PostgresStore(postgres_schema, resource, **POSTGRES_MODES[mode])
    conn = store.connect()
    try:
        SCENARIOS[scenario](store, conn, resource)
    finally:
        conn.close()


# ----------------------------------------------------------------------------- Redis


def _redis_writes(fence: RedisFence, resource: str, token: int, keys: list[str]) -> Any:
    return fence.write(resource, token, ("INCR", keys[0]), ("RPUSH", keys[1], "x"))


def _redis_script(fence: RedisFence, resource: str, token: int, keys: list[str]) -> Any:
    script = fence.script("redis.call('INCR', KEYS[1]); return redis.call('RPUSH', KEYS[2], 'x')")
    return script(resource, token, keys)


@pytest.mark.parametrize("writer", [_redis_writes, _redis_script], ids=["write", "script"])
def test_redis_valid_token_writes_everything_and_stale_nothing(writer: Any, redis_client: Any, resource: str) -> None:
    fence = RedisFence(redis_client, prefix="jobcheck-test")
    keys = [f"jobcheck-test:{{{resource}}}:count", f"jobcheck-test:{{{resource}}}:log"]
    fence.write(resource, 5)  # a newer lease has written
    with pytest.raises(StaleTokenError):
        writer(fence, resource, 4, keys)
    assert (redis_client.get(keys[0]), redis_client.lrange(keys[1], 0, -1)) == (None, [])
    try:  # a caller that swallows the error has still written nothing
        writer(fence, resource, 4, keys)
    except StaleTokenError:
        pass
    assert redis_client.exists(*keys) == 0
    writer(fence, resource, 5, keys)
    assert (redis_client.get(keys[0]), redis_client.lrange(keys[1], 0, -1)) == (b"1", [b"x"])
