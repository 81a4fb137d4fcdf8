"""Who begins and who commits a fenced transaction, for every sqlite3 and psycopg 3 mode.

Drivers disagree on what "a transaction is open" means. sqlite3 with ``isolation_level=None``
or ``autocommit=True``, and psycopg with ``autocommit=True``, never open one by themselves: an
open transaction there was begun on purpose by the caller (``BEGIN``, ``conn.transaction()``).
sqlite3's other modes and psycopg's ``autocommit=False`` open one implicitly (at the first
write, the first statement, or always, for Python 3.12's ``autocommit=False``) and leave the
commit to the caller. So :func:`fenced_transaction_scope` takes one of three roles:

* **open**: nothing is open, so it begins a transaction and commits it (rolls back on error);
* **adopt**: the driver opened one implicitly; it is fenced along with the block and committed
  at the end, as the driver's own ``with conn:`` would (never left open to be lost on close);
* **join**: an enclosing ``fenced_transaction``, a ``conn.transaction()`` block or the caller's
  ``BEGIN`` owns the transaction; the block adds to it without a savepoint, so a stale token
  aborts all of it and the owner commits or rolls back.
"""

from __future__ import annotations

import enum
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["Role", "fenced_transaction_scope", "sqlite_keep_standing_transaction", "sqlite_starts_transactions"]

# Python 3.12's sqlite3 Connection.autocommit; older Pythons behave as this value says.
_LEGACY_CONTROL = getattr(sqlite3, "LEGACY_TRANSACTION_CONTROL", -1)

# id() of each connection inside a fenced_transaction that will commit or roll back: nested
# blocks join it. Entries live exactly as long as the outer block, so ids are never stale.
_committing: set[int] = set()


class Role(enum.Enum):
    OPEN = "open"
    ADOPT = "adopt"
    JOIN = "join"


def _sqlite_autocommit(conn: sqlite3.Connection) -> Any:
    return getattr(conn, "autocommit", _LEGACY_CONTROL)


def sqlite_starts_transactions(conn: sqlite3.Connection) -> bool:
    """False when sqlite3 runs every statement on its own unless the caller said BEGIN."""
    autocommit = _sqlite_autocommit(conn)
    if autocommit is True:
        return False
    return autocommit is False or conn.isolation_level is not None


def sqlite_keep_standing_transaction(conn: sqlite3.Connection) -> None:
    """With ``autocommit=False`` sqlite3 keeps a transaction open at all times, and its commit()
    and rollback() fail without one: after the engine ended it behind sqlite3's back (a stale
    fence rolled it back, a COMMIT executed as SQL) begin the next, or the next write would
    commit on its own."""
    if _sqlite_autocommit(conn) is False and not conn.in_transaction:
        conn.execute("BEGIN")


def _role(conn: Any, dialect: str) -> Role:
    if id(conn) in _committing:
        return Role.JOIN
    if dialect == "sqlite":
        if not conn.in_transaction:
            return Role.OPEN
        return Role.ADOPT if sqlite_starts_transactions(conn) else Role.JOIN
    from psycopg.pq import TransactionStatus

    if conn.info.transaction_status == TransactionStatus.IDLE:
        return Role.OPEN
    # psycopg has no public flag for "inside conn.transaction()"; _num_transactions is its
    # block depth. Were it renamed, adopting would call commit() inside the block, which
    # psycopg refuses loudly: never a silent wrong commit.
    if conn.autocommit or getattr(conn, "_num_transactions", 0):
        return Role.JOIN
    return Role.ADOPT


def _end(conn: Any, dialect: str, *, commit: bool) -> None:
    if dialect == "sqlite" and not sqlite_starts_transactions(conn):
        # autocommit=True makes commit()/rollback() no-ops: end the BEGIN ourselves.
        if conn.in_transaction:
            conn.execute("COMMIT" if commit else "ROLLBACK")
    elif commit:
        conn.commit()
    else:
        conn.rollback()


@contextmanager
def fenced_transaction_scope(conn: Any, dialect: str) -> Iterator[Role]:
    """Begin (or adopt, or join) the transaction a fenced block runs in; see the module doc."""
    role = _role(conn, dialect)
    if role is Role.JOIN:
        yield role
        return
    _committing.add(id(conn))
    try:
        if dialect == "postgres" and role is Role.OPEN:
            with conn.transaction():  # BEGIN ... COMMIT in either autocommit mode
                yield role
            return
        if role is Role.OPEN:
            # IMMEDIATE takes the write lock up front: no busy snapshot later in the block.
            conn.execute("BEGIN IMMEDIATE")
        try:
            yield role
        except BaseException:
            _end(conn, dialect, commit=False)
            raise
        _end(conn, dialect, commit=True)
    finally:
        _committing.discard(id(conn))
