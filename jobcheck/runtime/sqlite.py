"""Leases in a SQLite file: the embedded default, for runners on one machine.

Every state change runs in a ``BEGIN IMMEDIATE`` transaction, which takes SQLite's write lock
before reading, so the read-decide-write of an acquisition is serialized across all processes
using the file. Expiry is read from SQLite's own clock (``julianday('now')``, the host's system
clock as the SQLite library reads it), never from Python's ``time.time()``: a process whose
Python clock is faked or shifted (freezegun, time-machine, a monkeypatch) agrees with the
others on who holds a lease. A step of the system clock (NTP, manual change) can still end
leases early or late. That is why writes must also be fenced; a lease alone protects nothing.

The file must be on a local filesystem (SQLite locking is unreliable over NFS/SMB).
"""

from __future__ import annotations

import os
import random
import sqlite3
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TypeVar
from urllib.parse import quote

from ._procs import ProcessLocal, check_identifier
from .errors import NoSuchLeaseStore
from .lease import LeaseBackend, LeaseInfo

__all__ = ["SQLiteLeases", "retry_busy"]

T = TypeVar("T")


# Unix time in seconds on SQLite's clock; every use of it within one statement reads one value.
_NOW = "((julianday('now') - 2440587.5) * 86400.0)"


def _store_now(conn: sqlite3.Connection) -> float:
    return conn.execute(f"SELECT {_NOW}").fetchone()[0]


def _utc(ts: float | None) -> datetime | None:
    return None if ts is None else datetime.fromtimestamp(ts, tz=timezone.utc)


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc)
    return "locked" in text or "busy" in text


def retry_busy(op: Callable[[], T], timeout: float) -> T:
    """Run ``op`` until it does not fail with "database is locked", polling every 0.1-5 ms.

    SQLite's own busy handler sleeps in growing steps of up to 100 ms, so under contention
    waiters oversleep and queue up; connections used with this keep their busy timeout at 0.
    ``op`` must leave no transaction open when it fails (the callers roll back).
    """
    deadline = time.monotonic() + timeout
    delay = 0.0002
    while True:
        try:
            return op()
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(delay * (0.5 + random.random()))
        delay = min(delay * 1.5, 0.005)


class SQLiteLeases(LeaseBackend):
    """Leases stored in table ``jobcheck_leases`` of the SQLite database at ``path``.

    The file and table are created on first use; with ``create=False`` (inspecting a store)
    nothing is created or converted, and a missing file raises :class:`NoSuchLeaseStore`.
    """

    kind = "sqlite"

    def __init__(
        self, path: str | os.PathLike[str], *, table: str = "jobcheck_leases", busy_timeout: float = 30.0, create: bool = True
    ) -> None:
        self.path = os.fspath(path)
        self.table = check_identifier(table)
        self.busy_timeout = busy_timeout
        self.create = create
        if not create and not os.path.isfile(self.path):
            raise NoSuchLeaseStore(f"no such lease database: {self.path}")
        self._conn: ProcessLocal[sqlite3.Connection] = ProcessLocal(self._open, lambda c: c.close())

    def __repr__(self) -> str:
        return f"SQLiteLeases({self.path!r})"

    def _open(self) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN IMMEDIATE/COMMIT ourselves; timeout=0: we poll
        # for locks ourselves (retry_busy).
        if not self.create:  # mode=rw: a file removed since __init__ is not created again
            uri = f"file:{quote(os.path.abspath(self.path))}?mode=rw"
            return sqlite3.connect(uri, uri=True, timeout=0, isolation_level=None, check_same_thread=False)
        conn = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
        retry_busy(lambda: conn.execute("PRAGMA journal_mode=WAL"), self.busy_timeout)
        retry_busy(
            lambda: conn.execute(
                f"CREATE TABLE IF NOT EXISTS {self.table} ("
                " resource TEXT PRIMARY KEY,"
                " token INTEGER NOT NULL,"  # highest token issued; kept on release and clear
                " holder TEXT,"  # NULL when free
                " expires_at REAL)"  # unix time on SQLite's clock
            ),
            self.busy_timeout,
        )
        return conn

    def _read(self, op: Callable[[sqlite3.Connection], T]) -> T:
        with self._conn.use() as conn:
            return retry_busy(lambda: op(conn), self.busy_timeout)

    def _write(self, op: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``op`` in a BEGIN IMMEDIATE transaction, retried whole while the file is locked."""

        def attempt(conn: sqlite3.Connection) -> T:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = op(conn)
                conn.execute("COMMIT")
                return result
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

        return self._read(attempt)

    def _try_acquire(self, resource: str, ttl: float, holder: str) -> tuple[int, datetime | None] | None:
        # A plain read first: in WAL mode it takes no lock, so runners polling a held lease do
        # not queue for the write lock the holder needs. The decision is re-made below.
        row = self._read(
            lambda c: c.execute(
                f"SELECT holder IS NOT NULL AND expires_at > {_NOW} FROM {self.table} WHERE resource = ?", (resource,)
            ).fetchone()
        )
        if row is not None and row[0]:
            return None

        def acquire(conn: sqlite3.Connection) -> tuple[int, datetime | None] | None:
            now = _store_now(conn)  # read under the write lock, after any wait for it
            row = conn.execute(
                f"SELECT token, holder, expires_at FROM {self.table} WHERE resource = ?", (resource,)
            ).fetchone()
            if row is not None and row[1] is not None and row[2] > now:
                return None
            token = (row[0] if row else 0) + 1
            conn.execute(
                f"INSERT INTO {self.table} (resource, token, holder, expires_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (resource) DO UPDATE SET"
                " token = excluded.token, holder = excluded.holder, expires_at = excluded.expires_at",
                (resource, token, holder, now + ttl),
            )
            return token, _utc(now + ttl)

        return self._write(acquire)

    def _renew(self, resource: str, token: int, holder: str, ttl: float) -> tuple[bool, datetime | None]:
        def renew(conn: sqlite3.Connection) -> tuple[bool, datetime | None]:
            now = _store_now(conn)
            cur = conn.execute(
                f"UPDATE {self.table} SET expires_at = ?"
                " WHERE resource = ? AND token = ? AND holder = ? AND expires_at > ?",
                (now + ttl, resource, token, holder, now),
            )
            return cur.rowcount == 1, _utc(now + ttl)

        return self._write(renew)

    def _release(self, resource: str, token: int, holder: str) -> bool:
        return self._write(
            lambda conn: conn.execute(
                f"UPDATE {self.table} SET holder = NULL, expires_at = NULL WHERE resource = ? AND token = ? AND holder = ?",
                (resource, token, holder),
            ).rowcount
            == 1
        )

    def clear(self, resource: str) -> LeaseInfo | None:
        def clear(conn: sqlite3.Connection) -> LeaseInfo | None:
            before = self._info(conn, resource)
            conn.execute(f"UPDATE {self.table} SET holder = NULL, expires_at = NULL WHERE resource = ?", (resource,))
            return before

        return self._write(clear)

    def get(self, resource: str) -> LeaseInfo | None:
        return self._read(lambda conn: self._info(conn, resource))

    _INFO = f"resource, token, holder, expires_at, holder IS NOT NULL AND expires_at > {_NOW}"

    def list(self) -> list[LeaseInfo]:
        rows = self._read(lambda conn: conn.execute(f"SELECT {self._INFO} FROM {self.table} ORDER BY resource").fetchall())
        return [self._row_info(row) for row in rows]

    def _info(self, conn: sqlite3.Connection, resource: str) -> LeaseInfo | None:
        row = conn.execute(f"SELECT {self._INFO} FROM {self.table} WHERE resource = ?", (resource,)).fetchone()
        return None if row is None else self._row_info(row)

    @staticmethod
    def _row_info(row: tuple) -> LeaseInfo:
        resource, token, holder, expires, held = row
        return LeaseInfo(resource, token, holder, _utc(expires), bool(held))

    def close(self) -> None:
        self._conn.close()
