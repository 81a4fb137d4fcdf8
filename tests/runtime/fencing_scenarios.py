"""The fencing contract as scenarios, one function each, run against every driver mode.

A scenario gets a :class:`Store` (one driver in one transaction mode), the connection under
test and a fresh resource name, and raises AssertionError when the contract is broken. The
module needs only the standard library and jobcheck, so that Python 3.12's sqlite3
``autocommit`` modes can be checked by another interpreter when pytest runs on an older one:

    PYTHONPATH=. python3.12 tests/runtime/fencing_scenarios.py   # prints one JSON line per case
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
import traceback
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from jobcheck.runtime import StaleTokenError, fence, fenced_transaction, install_fencing


class Store(Protocol):
    name: str
    manual: bool  # the driver never begins a transaction by itself (each statement commits)

    def connect(self) -> Any: ...

    def caller_transaction(self, conn: Any) -> Any:
        """A transaction written by hand, as code using this mode would, committed at the end."""

    def documented_block(self, conn: Any) -> Any:
        """What the docs wrap ``fence(); writes`` in for this mode: sqlite3's ``with conn:``,
        psycopg's ``with conn.transaction():`` (autocommit) or writes then ``commit()``."""

    documented_block_begins: bool  # False: the block begins no transaction (sqlite3, manual)

    def insert(self, conn: Any, name: str) -> None: ...

    def committed(self) -> list[str]:
        """The names committed so far, read through another connection."""

    def advance(self, resource: str, token: int) -> None:
        """Fence ``resource`` at ``token`` from another connection (a newer lease wrote)."""

    driver_error: type[Exception]


Scenario = Callable[[Store, Any, str], None]
SCENARIOS: dict[str, Scenario] = {}


def scenario(fn: Scenario) -> Scenario:
    SCENARIOS[fn.__name__] = fn
    return fn


@contextmanager
def raises(kind: type[BaseException]) -> Iterator[None]:
    try:
        yield
    except kind:
        return
    raise AssertionError(f"{kind.__name__} was not raised")


def expect(actual: Any, wanted: Any, what: str) -> None:
    if actual != wanted:
        raise AssertionError(f"{what}: expected {wanted!r}, got {actual!r}")


@scenario
def valid_token_commits_every_write(store: Store, conn: Any, resource: str) -> None:
    store.advance(resource, 3)
    conn.execute("SELECT 1")  # psycopg (autocommit off) opens a transaction here
    with fenced_transaction(conn, resource, 3):  # an equal token: the same lease
        store.insert(conn, "a")
        store.insert(conn, "b")
    expect(store.committed(), ["a", "b"], "committed before close")


@scenario
def stale_token_writes_nothing_and_skips_the_body(store: Store, conn: Any, resource: str) -> None:
    store.advance(resource, 5)
    ran = []
    with raises(StaleTokenError), fenced_transaction(conn, resource, 4):
        ran.append("body")
        store.insert(conn, "stale")
    expect(ran, [], "body runs")
    expect(store.committed(), [], "committed after a stale token")
    with fenced_transaction(conn, resource, 5):  # the connection is fine afterwards
        store.insert(conn, "fresh")
    expect(store.committed(), ["fresh"], "committed by the next valid block")


@scenario
def stale_token_discards_the_callers_earlier_writes(store: Store, conn: Any, resource: str) -> None:
    store.advance(resource, 5)
    with raises(StaleTokenError), store.caller_transaction(conn):
        store.insert(conn, "earlier")
        with fenced_transaction(conn, resource, 4):
            store.insert(conn, "stale")
    expect(store.committed(), [], "committed after a stale token")


@scenario
def stale_token_in_a_nested_block_aborts_the_outer_one(store: Store, conn: Any, resource: str) -> None:
    other = f"{resource}-other"
    store.advance(other, 3)
    with raises(StaleTokenError), fenced_transaction(conn, resource, 1):
        store.insert(conn, "outer")
        with fenced_transaction(conn, other, 2):
            store.insert(conn, "inner")
    expect(store.committed(), [], "committed after a stale nested block")


@scenario
def nested_blocks_commit_once_when_the_outer_one_ends(store: Store, conn: Any, resource: str) -> None:
    with fenced_transaction(conn, resource, 1):
        store.insert(conn, "outer")
        with fenced_transaction(conn, f"{resource}-other", 1):
            store.insert(conn, "inner")
        expect(store.committed(), [], "committed by the inner block")
    expect(store.committed(), ["inner", "outer"], "committed by the outer block")


def _catch_stale_then_commit(store: Store, conn: Any, resource: str, stale_write: Callable[[], Any]) -> None:
    store.advance(resource, 5)
    try:
        with store.caller_transaction(conn):
            store.insert(conn, "earlier")
            try:
                stale_write()
            except StaleTokenError:
                pass
    except store.driver_error:  # sqlite3's COMMIT statement finds no transaction left
        pass
    expect(store.committed(), [], "committed after a caught stale token")


@scenario
def a_caller_that_swallows_the_error_and_commits_writes_nothing(store: Store, conn: Any, resource: str) -> None:
    _catch_stale_then_commit(store, conn, resource, lambda: fence(conn, resource, 4))


@scenario
def a_caller_that_catches_a_stale_block_and_commits_writes_nothing(store: Store, conn: Any, resource: str) -> None:
    """psycopg once made the block a savepoint: the caller's earlier write then committed."""

    def stale_block() -> None:
        with fenced_transaction(conn, resource, 4):
            store.insert(conn, "stale")

    _catch_stale_then_commit(store, conn, resource, stale_block)


@scenario
def the_documented_pattern_commits_only_a_valid_token(store: Store, conn: Any, resource: str) -> None:
    store.advance(resource, 5)
    outcome = StaleTokenError if store.documented_block_begins else RuntimeError
    with raises(outcome), store.documented_block(conn):
        fence(conn, resource, 4)
        store.insert(conn, "stale")
    expect(store.committed(), [], "committed after a stale token")
    if not store.documented_block_begins:
        with raises(RuntimeError), store.documented_block(conn):  # refused before anything is written
            fence(conn, resource, 5)
        return
    with store.documented_block(conn):
        fence(conn, resource, 5)
        store.insert(conn, "fresh")
    expect(store.committed(), ["fresh"], "committed with a valid token")


@scenario
def writes_after_a_stale_token_follow_the_connections_mode(store: Store, conn: Any, resource: str) -> None:
    """Python 3.12's autocommit=False once committed the next write at once after a rejection."""
    store.advance(resource, 5)
    with raises(StaleTokenError), store.caller_transaction(conn):
        fence(conn, resource, 4)
    conn.rollback()  # always allowed, whatever the driver did
    store.insert(conn, "next")
    expect(store.committed(), ["next"] if store.manual else [], "committed without commit()")
    conn.rollback()
    expect(store.committed(), ["next"] if store.manual else [], "committed after rollback()")


# ----------------------------------------------------------------------------- SQLite modes


class SQLiteStore:
    """One sqlite3 transaction mode, on a file of its own."""

    driver_error = sqlite3.Error

    def __init__(self, name: str, folder: Path, **connect_kwargs: Any) -> None:
        self.name = name
        self.path = folder / f"{name}-{uuid.uuid4().hex[:8]}.db"
        self.kwargs = connect_kwargs
        autocommit = connect_kwargs.get("autocommit", getattr(sqlite3, "LEGACY_TRANSACTION_CONTROL", -1))
        self.manual = autocommit is True or (autocommit not in (True, False) and connect_kwargs.get("isolation_level", "") is None)
        self.documented_block_begins = not self.manual  # sqlite3's `with conn:` only commits
        setup = sqlite3.connect(self.path)
        setup.execute("CREATE TABLE items (name TEXT)")
        setup.commit()
        install_fencing(setup)
        setup.close()

    def connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=10, **self.kwargs)

    @contextmanager
    def caller_transaction(self, conn: sqlite3.Connection) -> Iterator[None]:
        if self.manual:
            conn.execute("BEGIN")
        try:
            yield
        except BaseException:
            conn.rollback()
            raise
        if self.manual:
            conn.execute("COMMIT")
        else:
            conn.commit()

    def documented_block(self, conn: sqlite3.Connection) -> sqlite3.Connection:
        return conn

    def insert(self, conn: sqlite3.Connection, name: str) -> None:
        conn.execute("INSERT INTO items VALUES (?)", (name,))

    def committed(self) -> list[str]:
        reader = sqlite3.connect(self.path, timeout=10)
        try:
            return [n for (n,) in reader.execute("SELECT name FROM items ORDER BY name")]
        finally:
            reader.close()

    def advance(self, resource: str, token: int) -> None:
        other = sqlite3.connect(self.path, timeout=10)
        try:
            with fenced_transaction(other, resource, token):
                pass
        finally:
            other.close()


# Every isolation_level of the sqlite3 module's legacy transaction control.
LEGACY_MODES: dict[str, dict[str, Any]] = {
    "isolation_default": {},
    "isolation_deferred": {"isolation_level": "DEFERRED"},
    "isolation_immediate": {"isolation_level": "IMMEDIATE"},
    "isolation_none": {"isolation_level": None},
}

# Python 3.12's Connection.autocommit (keyword values, so this module imports anywhere).
AUTOCOMMIT_MODES: dict[str, dict[str, Any]] = {
    "autocommit_true": {"autocommit": True},
    "autocommit_false": {"autocommit": False},
    "autocommit_false_isolation_none": {"autocommit": False, "isolation_level": None},
    "autocommit_legacy": {"autocommit": -1},  # sqlite3.LEGACY_TRANSACTION_CONTROL
    "autocommit_legacy_isolation_none": {"autocommit": -1, "isolation_level": None},
}


def run_sqlite_case(mode: str, kwargs: dict[str, Any], scenario_name: str, folder: Path) -> None:
    store = SQLiteStore(mode, folder, **kwargs)
    conn = store.connect()
    try:
        SCENARIOS[scenario_name](store, conn, f"modes-{uuid.uuid4().hex[:8]}")
    finally:
        conn.close()


def main() -> int:
    """Run every autocommit mode x scenario; one JSON line each: mode, scenario, error."""
    if sys.version_info < (3, 12):
        print("Connection.autocommit needs Python 3.12 or later", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        for mode, kwargs in AUTOCOMMIT_MODES.items():
            for name in SCENARIOS:
                try:
                    run_sqlite_case(mode, kwargs, name, Path(folder))
                    error = None
                except Exception:  # noqa: BLE001 - reported to the parent test
                    error = traceback.format_exc()
                print(json.dumps({"mode": mode, "scenario": name, "error": error}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
