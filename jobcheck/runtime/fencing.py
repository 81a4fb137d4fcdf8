"""Storage-side fencing for SQL stores (SQLite and PostgreSQL via psycopg 3).

A lease tells a runner it *probably* holds a resource; only the store can make sure a runner
whose lease expired (GC pause, SIGSTOP, slow network) cannot write. Call :func:`fence` inside
the transaction that makes the protected writes. It advances ``jobcheck_fences.token`` for the
resource to the write's token, and if the store has already seen a newer token the *store*
aborts the transaction:

* SQLite: a trigger runs ``RAISE(ROLLBACK)``, which ends the whole transaction in the engine;
* PostgreSQL: the function ``jobcheck_fence()`` raises SQLSTATE ``JC409``, which puts the
  transaction in the aborted state so nothing in it can commit.

Either way :class:`StaleTokenError` reaches the caller and no write of that transaction is
applied, even if the caller catches the exception and calls ``commit()``. The fence row stays
locked until the transaction ends, so there is no window between check and write.

Fence *first*, before the transaction's writes: on a connection that runs each statement on its
own (sqlite3 ``isolation_level=None`` or ``autocommit=True``, psycopg ``autocommit=True``)
:func:`fence` then refuses to run outside a transaction before anything is written.
:func:`fenced_transaction` does it in that order for you; :mod:`._transactions` says when it
begins, adopts or joins a transaction.

After a stale token the transaction is over. SQLite has rolled it back (under Python 3.12's
``autocommit=False`` a new one is begun, as that mode promises); PostgreSQL refuses every
statement until a rollback (``commit()`` rolls back). End it with ``conn.rollback()``, which
works in every mode. One gap remains on PostgreSQL: rolling back *to a savepoint* taken before
the fence undoes the rejection (psycopg takes one for a ``conn.transaction()`` opened while a
transaction is already open), so fence at the top level of a transaction.

Equal tokens pass: one lease may make many fenced writes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ._procs import check_identifier
from ._transactions import (
    fenced_transaction_scope,
    sqlite_keep_standing_transaction,
    sqlite_starts_transactions,
)
from .errors import FencingNotInstalled, StaleTokenError

__all__ = ["STALE_SQLSTATE", "current_fence", "fence", "fenced_transaction", "install_fencing"]

#: SQLSTATE raised by the PostgreSQL fence function for a stale token.
STALE_SQLSTATE = "JC409"
_STALE_MESSAGE = "jobcheck: stale fencing token"


def _dialect(conn: Any) -> str:
    if isinstance(conn, sqlite3.Connection):
        return "sqlite"
    module = type(conn).__module__
    if module == "psycopg" or module.startswith("psycopg."):
        return "postgres"
    raise TypeError(f"fencing supports sqlite3 and psycopg 3 connections, not {type(conn).__name__}")


def _function_for(table: str) -> str:
    return "jobcheck_fence" if table == "jobcheck_fences" else f"{table}_advance"


# ----------------------------------------------------------------------------- install


def install_fencing(conn: Any, *, table: str = "jobcheck_fences") -> None:
    """Create the fence table (and trigger or function). Idempotent; run it at setup time.

    It commits: do not call it inside a transaction you still mean to roll back.
    """
    table = check_identifier(table)
    if _dialect(conn) == "sqlite":
        _install_sqlite(conn, table)
    else:
        _install_postgres(conn, table)


def _install_sqlite(conn: sqlite3.Connection, table: str) -> None:
    trigger = f"{table.replace('.', '_')}_reject_stale"
    conn.execute(f"CREATE TABLE IF NOT EXISTS {table} (resource TEXT PRIMARY KEY, token INTEGER NOT NULL)")
    # RAISE(ROLLBACK) ends the caller's whole transaction, not just this statement.
    conn.execute(
        f"CREATE TRIGGER IF NOT EXISTS {trigger} BEFORE UPDATE OF token ON {table}"
        f" WHEN NEW.token < OLD.token BEGIN SELECT RAISE(ROLLBACK, '{_STALE_MESSAGE}'); END"
    )
    if conn.in_transaction:
        conn.execute("COMMIT")
        sqlite_keep_standing_transaction(conn)  # autocommit=False keeps a transaction open


def _install_postgres(conn: Any, table: str) -> None:
    function = _function_for(table)
    statements = [
        # Session-level lock: concurrent CREATE OR REPLACE FUNCTION fails with
        # "tuple concurrently updated" otherwise.
        ("SELECT pg_advisory_lock(hashtext(%s))", (f"jobcheck-schema:{table}",)),
        (f"CREATE TABLE IF NOT EXISTS {table} (resource text PRIMARY KEY, token bigint NOT NULL)", None),
        (
            f"""CREATE OR REPLACE FUNCTION {function}(p_resource text, p_token bigint) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
  seen bigint;
BEGIN
  -- Takes (and keeps until commit) the row lock, so concurrent writers queue here.
  INSERT INTO {table} AS f (resource, token) VALUES (p_resource, p_token)
  ON CONFLICT (resource) DO UPDATE SET token = EXCLUDED.token WHERE f.token <= EXCLUDED.token
  RETURNING f.token INTO seen;
  IF NOT FOUND THEN
    SELECT f.token INTO seen FROM {table} AS f WHERE f.resource = p_resource;
    RAISE EXCEPTION '{_STALE_MESSAGE} % for % (the store has seen %)', p_token, p_resource, seen
      USING ERRCODE = '{STALE_SQLSTATE}', DETAIL = seen::text;
  END IF;
  RETURN seen;
END
$fn$""",
            None,
        ),
    ]
    try:
        with conn.cursor() as cur:
            for sql, params in statements:
                cur.execute(sql, params)
        if not conn.autocommit:
            conn.commit()
    except BaseException:
        if not conn.autocommit:
            conn.rollback()  # so the unlock below can run
        raise
    finally:
        # A session-level lock outlives rollbacks: always give it back.
        with conn.cursor() as cur:
            cur.execute("SELECT pg_advisory_unlock(hashtext(%s))", (f"jobcheck-schema:{table}",))
        if not conn.autocommit:
            conn.commit()


# ----------------------------------------------------------------------------- fence


def fence(conn: Any, resource: str, token: int, *, table: str = "jobcheck_fences") -> int:
    """Inside the caller's open transaction, record ``token`` as the newest seen for ``resource``.

    Returns the token. Raises :class:`StaleTokenError` (the store has already rolled the
    transaction back / marked it aborted) if a newer token was seen; raises ``RuntimeError``
    when no transaction is open, since the fence would then commit on its own.
    """
    table = check_identifier(table)
    token = int(token)
    if _dialect(conn) == "sqlite":
        return _fence_sqlite(conn, resource, token, table)
    return _fence_postgres(conn, resource, token, table)


def _fence_sqlite(conn: sqlite3.Connection, resource: str, token: int, table: str) -> int:
    if not conn.in_transaction and not sqlite_starts_transactions(conn):
        raise RuntimeError("fence() must run inside a transaction: BEGIN (IMMEDIATE) first, or use fenced_transaction()")
    try:
        conn.execute(
            f"INSERT INTO {table} (resource, token) VALUES (?, ?)"
            " ON CONFLICT (resource) DO UPDATE SET token = excluded.token",
            (resource, token),
        )
    except sqlite3.IntegrityError as exc:
        if _STALE_MESSAGE not in str(exc):
            raise
        sqlite_keep_standing_transaction(conn)
        raise StaleTokenError(resource, token, current_fence(conn, resource, table=table)) from None
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            raise FencingNotInstalled(f"table {table} is missing: call install_fencing(conn) first") from exc
        raise
    return token


def _fence_postgres(conn: Any, resource: str, token: int, table: str) -> int:
    if conn.autocommit and int(conn.info.transaction_status) == 0:  # IDLE: no transaction open
        raise RuntimeError("fence() must run inside a transaction: use conn.transaction() or fenced_transaction()")
    import psycopg

    try:
        with conn.cursor() as cur:
            cur.execute(f"SELECT {_function_for(table)}(%s, %s)", (resource, token))
    except psycopg.Error as exc:
        if exc.sqlstate == STALE_SQLSTATE:
            detail = exc.diag.message_detail
            raise StaleTokenError(resource, token, int(detail) if detail else None) from None
        if exc.sqlstate == "42883":  # undefined_function
            raise FencingNotInstalled(f"function {_function_for(table)} is missing: call install_fencing(conn) first") from exc
        raise
    return token


def current_fence(conn: Any, resource: str, *, table: str = "jobcheck_fences") -> int | None:
    """The highest token the store has accepted for ``resource`` (None if never fenced)."""
    table = check_identifier(table)
    placeholder = "?" if _dialect(conn) == "sqlite" else "%s"
    cur = conn.cursor()
    try:
        cur.execute(f"SELECT token FROM {table} WHERE resource = {placeholder}", (resource,))
        row = cur.fetchone()
    finally:
        cur.close()
    return None if row is None else int(row[0])


# ----------------------------------------------------------------------------- transaction


@contextmanager
def fenced_transaction(conn: Any, resource: str, token: int, *, table: str = "jobcheck_fences") -> Iterator[Any]:
    """A transaction whose first statement is the fence; it ends committed or rolled back.

    With no transaction open it begins one (SQLite ``BEGIN IMMEDIATE``, PostgreSQL ``BEGIN``)
    and commits it, or rolls it back on an error. A transaction the driver opened implicitly
    (sqlite3's default modes and ``autocommit=False``, psycopg's ``autocommit=False``) is
    fenced and committed the same way; under those modes your own ``BEGIN`` is such a
    transaction too (sqlite3 cannot tell them apart), so it is committed at the end of the block.
    Inside another ``fenced_transaction``, a ``conn.transaction()`` block, or your own ``BEGIN``
    on a connection that never opens transactions by itself (sqlite3 ``isolation_level=None`` or
    ``autocommit=True``, psycopg ``autocommit=True``), it joins that transaction without a
    savepoint: a stale token aborts the whole of it, and its owner commits. On a stale token the
    body does not run.
    """
    dialect = _dialect(conn)
    with fenced_transaction_scope(conn, dialect):
        fence(conn, resource, token, table=table)
        yield conn
