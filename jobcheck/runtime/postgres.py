"""Leases in PostgreSQL (psycopg 3), for runners on several machines.

One row per resource. Each operation is a single statement in its own transaction; an
acquisition is ``INSERT ... ON CONFLICT DO UPDATE ... WHERE <free or expired> RETURNING``, which
PostgreSQL executes atomically under the row lock, so two runners can never both win and the
token only ever grows. Time comes from the server (``clock_timestamp()``), never from the
clients, so runners with skewed clocks still agree on who holds a lease.

psycopg is imported when the first connection is opened, so importing this module is free.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ._procs import ProcessLocal, check_identifier
from .lease import LeaseBackend, LeaseInfo

__all__ = ["PostgresLeases", "connect"]


def connect(dsn: str, **kwargs: Any) -> Any:
    """An autocommit psycopg connection (imported lazily, with a helpful error if missing)."""
    try:
        import psycopg
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("PostgreSQL support needs psycopg 3: pip install 'jobcheck[postgres]'") from exc
    return psycopg.connect(dsn, autocommit=True, **kwargs)


class PostgresLeases(LeaseBackend):
    """Leases stored in table ``jobcheck_leases`` (created on first use) of the database at ``dsn``."""

    kind = "postgres"

    def __init__(self, dsn: str, *, table: str = "jobcheck_leases", connect_kwargs: dict[str, Any] | None = None) -> None:
        self.dsn = dsn
        self.table = check_identifier(table)
        self._connect_kwargs = connect_kwargs or {}
        self._conn = ProcessLocal(self._open, lambda c: c.close())

    def __repr__(self) -> str:
        return f"PostgresLeases(table={self.table!r})"

    def _open(self) -> Any:
        conn = connect(self.dsn, **self._connect_kwargs)
        # Concurrent CREATE TABLE IF NOT EXISTS can still collide in the catalog; serialize it.
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"jobcheck-schema:{self.table}",))
            conn.execute(
                f"CREATE TABLE IF NOT EXISTS {self.table} ("
                " resource text PRIMARY KEY,"
                " token bigint NOT NULL,"  # highest token issued; kept on release and clear
                " holder text,"  # NULL when free
                " expires_at timestamptz)"  # on the server's clock
            )
        return conn

    def _one(self, sql: str, params: Any) -> tuple | None:
        with self._conn.use() as conn:
            return conn.execute(sql, params).fetchone()

    def _try_acquire(self, resource: str, ttl: float, holder: str) -> tuple[int, datetime | None] | None:
        # A plain read first: the upsert below locks the row even when it changes nothing, which
        # costs a WAL flush per attempt while runners poll a held lease. The upsert decides.
        held = self._one(
            f"SELECT holder IS NOT NULL AND expires_at > clock_timestamp() FROM {self.table} WHERE resource = %s",
            (resource,),
        )
        if held is not None and held[0]:
            return None
        row = self._one(
            f"INSERT INTO {self.table} AS l (resource, token, holder, expires_at)"
            " VALUES (%(r)s, 1, %(h)s, clock_timestamp() + make_interval(secs => %(ttl)s))"
            " ON CONFLICT (resource) DO UPDATE SET"
            "  token = l.token + 1, holder = EXCLUDED.holder,"
            "  expires_at = clock_timestamp() + make_interval(secs => %(ttl)s)"
            " WHERE l.holder IS NULL OR l.expires_at <= clock_timestamp()"
            " RETURNING token, expires_at",
            {"r": resource, "h": holder, "ttl": float(ttl)},
        )
        return None if row is None else (int(row[0]), row[1])

    def _renew(self, resource: str, token: int, holder: str, ttl: float) -> tuple[bool, datetime | None]:
        row = self._one(
            f"UPDATE {self.table} SET expires_at = clock_timestamp() + make_interval(secs => %s)"
            " WHERE resource = %s AND token = %s AND holder = %s AND expires_at > clock_timestamp()"
            " RETURNING expires_at",
            (float(ttl), resource, token, holder),
        )
        return (row is not None), (row[0] if row else None)

    def _release(self, resource: str, token: int, holder: str) -> bool:
        row = self._one(
            f"UPDATE {self.table} SET holder = NULL, expires_at = NULL"
            " WHERE resource = %s AND token = %s AND holder = %s RETURNING 1",
            (resource, token, holder),
        )
        return row is not None

    _INFO = "resource, token, holder, expires_at, (holder IS NOT NULL AND expires_at > clock_timestamp())"

    def clear(self, resource: str) -> LeaseInfo | None:
        row = self._one(
            f"WITH old AS (SELECT {self._INFO} AS held FROM {self.table} WHERE resource = %s FOR UPDATE)"
            f" UPDATE {self.table} AS l SET holder = NULL, expires_at = NULL FROM old"
            " WHERE l.resource = old.resource"
            " RETURNING old.resource, old.token, old.holder, old.expires_at, old.held",
            (resource,),
        )
        return None if row is None else LeaseInfo(row[0], int(row[1]), row[2], row[3], bool(row[4]))

    def get(self, resource: str) -> LeaseInfo | None:
        row = self._one(f"SELECT {self._INFO} FROM {self.table} WHERE resource = %s", (resource,))
        return None if row is None else LeaseInfo(row[0], int(row[1]), row[2], row[3], bool(row[4]))

    def list(self) -> list[LeaseInfo]:
        with self._conn.use() as conn:
            rows = conn.execute(f"SELECT {self._INFO} FROM {self.table} ORDER BY resource").fetchall()
        return [LeaseInfo(r[0], int(r[1]), r[2], r[3], bool(r[4])) for r in rows]

    def close(self) -> None:
        self._conn.close()
