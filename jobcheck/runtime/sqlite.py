"""Leases in a SQLite file: the embedded default, for runners on one machine.

Every state change runs in a ``BEGIN IMMEDIATE`` transaction, which takes SQLite's write lock
before reading, so the read-decide-write of an acquisition is serialized across all processes
using the file. Expiry uses the host's wall clock (``time.time()``): every process sharing the
file runs on this host and reads the same clock, but a clock step (NTP, manual change) can end
leases early or late. That is why writes must also be fenced; a lease alone protects nothing.

The file must be on a local filesystem (SQLite locking is unreliable over NFS/SMB).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone

from ._procs import ProcessLocal, check_identifier
from .lease import LeaseBackend, LeaseInfo

__all__ = ["SQLiteLeases"]


def _utc(ts: float | None) -> datetime | None:
    return None if ts is None else datetime.fromtimestamp(ts, tz=timezone.utc)


class SQLiteLeases(LeaseBackend):
    """Leases stored in table ``jobcheck_leases`` of the SQLite database at ``path``."""

    kind = "sqlite"

    def __init__(self, path: str | os.PathLike[str], *, table: str = "jobcheck_leases", busy_timeout: float = 30.0) -> None:
        self.path = os.fspath(path)
        self.table = check_identifier(table)
        self.busy_timeout = busy_timeout
        self._conn: ProcessLocal[sqlite3.Connection] = ProcessLocal(self._open, lambda c: c.close())

    def __repr__(self) -> str:
        return f"SQLiteLeases({self.path!r})"

    def _open(self) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN IMMEDIATE/COMMIT ourselves.
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False)
        self._retry_busy(lambda: conn.execute("PRAGMA journal_mode=WAL"))
        self._retry_busy(
            lambda: conn.execute(
                f"CREATE TABLE IF NOT EXISTS {self.table} ("
                " resource TEXT PRIMARY KEY,"
                " token INTEGER NOT NULL,"  # highest token issued; kept on release and clear
                " holder TEXT,"  # NULL when free
                " expires_at REAL)"  # unix time on the host clock
            )
        )
        return conn

    def _retry_busy(self, op) -> None:
        # Switching to WAL and creating the table can report "locked" without honouring the
        # busy timeout when many processes open the file at once.
        deadline = time.monotonic() + self.busy_timeout
        while True:
            try:
                op()
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    @contextmanager
    def _immediate(self) -> Iterator[sqlite3.Connection]:
        with self._conn.use() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _try_acquire(self, resource: str, ttl: float, holder: str) -> tuple[int, datetime | None] | None:
        with self._immediate() as conn:
            now = time.time()  # read under the write lock, after any wait for it
            row = conn.execute(
                f"SELECT token, holder, expires_at FROM {self.table} WHERE resource = ?", (resource,)
            ).fetchone()
            if row is not None and row[1] is not None and row[2] > now:
                return None
            token = (row[0] if row else 0) + 1
            expires = now + ttl
            conn.execute(
                f"INSERT INTO {self.table} (resource, token, holder, expires_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (resource) DO UPDATE SET"
                " token = excluded.token, holder = excluded.holder, expires_at = excluded.expires_at",
                (resource, token, holder, expires),
            )
            return token, _utc(expires)

    def _renew(self, resource: str, token: int, holder: str, ttl: float) -> tuple[bool, datetime | None]:
        with self._immediate() as conn:
            now = time.time()
            cur = conn.execute(
                f"UPDATE {self.table} SET expires_at = ?"
                " WHERE resource = ? AND token = ? AND holder = ? AND expires_at > ?",
                (now + ttl, resource, token, holder, now),
            )
            return cur.rowcount == 1, _utc(now + ttl)

    def _release(self, resource: str, token: int, holder: str) -> bool:
        with self._immediate() as conn:
            cur = conn.execute(
                f"UPDATE {self.table} SET holder = NULL, expires_at = NULL"
                " WHERE resource = ? AND token = ? AND holder = ?",
                (resource, token, holder),
            )
            return cur.rowcount == 1

    def clear(self, resource: str) -> LeaseInfo | None:
        with self._immediate() as conn:
            before = self._info(conn, resource)
            conn.execute(f"UPDATE {self.table} SET holder = NULL, expires_at = NULL WHERE resource = ?", (resource,))
            return before

    def get(self, resource: str) -> LeaseInfo | None:
        with self._conn.use() as conn:
            return self._info(conn, resource)

    def list(self) -> list[LeaseInfo]:
        with self._conn.use() as conn:
            now = time.time()
            rows = conn.execute(
                f"SELECT resource, token, holder, expires_at FROM {self.table} ORDER BY resource"
            ).fetchall()
        return [self._row_info(row, now) for row in rows]

    def _info(self, conn: sqlite3.Connection, resource: str) -> LeaseInfo | None:
        row = conn.execute(
            f"SELECT resource, token, holder, expires_at FROM {self.table} WHERE resource = ?", (resource,)
        ).fetchone()
        return None if row is None else self._row_info(row, time.time())

    @staticmethod
    def _row_info(row: tuple, now: float) -> LeaseInfo:
        resource, token, holder, expires = row
        held = holder is not None and expires is not None and expires > now
        return LeaseInfo(resource, token, holder, _utc(expires), held)

    def close(self) -> None:
        self._conn.close()
