"""Storage-side fencing: the store rejects stale tokens in the same transaction as the write."""

from __future__ import annotations

import sqlite3
import threading
import time
from typing import Any

import pytest

from jobcheck.runtime import (
    FencingNotInstalled,
    RedisFence,
    StaleTokenError,
    current_fence,
    fence,
    fenced_transaction,
    install_fencing,
)

# ----------------------------------------------------------------------------- SQLite


@pytest.fixture
def sqlite_db(tmp_path: Any) -> Any:
    conn = sqlite3.connect(tmp_path / "data.db", timeout=10)
    install_fencing(conn)
    install_fencing(conn)  # idempotent
    conn.execute("CREATE TABLE items (name TEXT)")
    conn.commit()
    yield conn
    conn.close()


def names(conn: Any) -> list[str]:
    return [n for (n,) in conn.execute("SELECT name FROM items ORDER BY name")]


def test_sqlite_newer_and_equal_tokens_pass(sqlite_db: Any, resource: str) -> None:
    with fenced_transaction(sqlite_db, resource, 3):
        sqlite_db.execute("INSERT INTO items VALUES ('a')")
    with fenced_transaction(sqlite_db, resource, 3):  # the same lease writes again
        sqlite_db.execute("INSERT INTO items VALUES ('b')")
    with fenced_transaction(sqlite_db, resource, 7):
        sqlite_db.execute("INSERT INTO items VALUES ('c')")
    assert names(sqlite_db) == ["a", "b", "c"]
    assert current_fence(sqlite_db, resource) == 7
    assert current_fence(sqlite_db, "never-fenced") is None


def test_sqlite_stale_token_rolls_back_the_whole_transaction(sqlite_db: Any, resource: str) -> None:
    with fenced_transaction(sqlite_db, resource, 5):
        sqlite_db.execute("INSERT INTO items VALUES ('fresh')")
    # Plain sqlite3 usage: writes first, fence last, and a caller that swallows the error.
    sqlite_db.execute("INSERT INTO items VALUES ('stale-before')")
    with pytest.raises(StaleTokenError) as info:
        fence(sqlite_db, resource, 4)
    assert (info.value.token, info.value.seen) == (4, 5)
    sqlite_db.execute("INSERT INTO items VALUES ('after')")  # a new transaction
    sqlite_db.rollback()
    sqlite_db.commit()
    assert names(sqlite_db) == ["fresh"]
    assert current_fence(sqlite_db, resource) == 5


def test_sqlite_commit_after_a_swallowed_stale_error_commits_nothing(sqlite_db: Any, resource: str) -> None:
    with fenced_transaction(sqlite_db, resource, 5):
        pass
    sqlite_db.execute("INSERT INTO items VALUES ('stale')")
    try:
        fence(sqlite_db, resource, 1)
    except StaleTokenError:
        pass
    sqlite_db.commit()  # the engine already ended the transaction
    assert names(sqlite_db) == []


def test_sqlite_fenced_transaction_rolls_back_on_error(sqlite_db: Any, resource: str) -> None:
    with pytest.raises(RuntimeError, match="boom"):
        with fenced_transaction(sqlite_db, resource, 2):
            sqlite_db.execute("INSERT INTO items VALUES ('x')")
            raise RuntimeError("boom")
    assert names(sqlite_db) == []
    assert current_fence(sqlite_db, resource) is None  # the fence advance rolled back too


def test_sqlite_fence_refuses_to_run_outside_a_transaction(tmp_path: Any, resource: str) -> None:
    conn = sqlite3.connect(tmp_path / "auto.db", isolation_level=None)
    install_fencing(conn)
    with pytest.raises(RuntimeError, match="inside a transaction"):
        fence(conn, resource, 1)
    conn.execute("BEGIN IMMEDIATE")
    assert fence(conn, resource, 1) == 1
    conn.execute("COMMIT")
    missing = sqlite3.connect(tmp_path / "missing.db")
    with pytest.raises(FencingNotInstalled):
        fence(missing, resource, 1)
    with pytest.raises(TypeError):
        fence(object(), resource, 1)


def test_sqlite_a_stale_writer_waiting_on_the_lock_is_rejected(tmp_path: Any, resource: str) -> None:
    """No check-then-write race: the check happens under the write lock, after the wait."""
    path = tmp_path / "race.db"
    new = sqlite3.connect(path, timeout=10, check_same_thread=False)
    old = sqlite3.connect(path, timeout=10, check_same_thread=False)
    install_fencing(new)
    new.execute("CREATE TABLE items (name TEXT)")
    new.commit()
    new.execute("BEGIN IMMEDIATE")
    fence(new, resource, 5)  # the new holder is mid-transaction
    outcome = _race_a_stale_writer(new, old, resource, "INSERT INTO items VALUES (?)", ())
    assert isinstance(outcome, StaleTokenError)
    assert names(new) == ["fresh"]


def _race_a_stale_writer(new: Any, old: Any, resource: str, insert: str, params: tuple) -> Any:
    """`new` holds token 5 mid-transaction; `old` (token 4) tries to write and must wait on the
    lock, then be rejected once `new` commits its own write. `insert` takes params + a name."""
    outcome: list[Any] = []

    def stale_writer() -> None:
        try:
            with fenced_transaction(old, resource, 4):
                old.execute(insert, (*params, "stale"))
            outcome.append("accepted")
        except StaleTokenError as exc:
            outcome.append(exc)

    thread = threading.Thread(target=stale_writer)
    thread.start()
    time.sleep(0.3)
    assert outcome == []  # blocked behind the new holder's transaction
    new.execute(insert, (*params, "fresh"))
    new.commit()
    thread.join(10)
    return outcome[0]


# ----------------------------------------------------------------------------- PostgreSQL


@pytest.fixture
def pg(pg_conn: Any) -> Any:
    install_fencing(pg_conn)
    install_fencing(pg_conn)
    pg_conn.execute("CREATE TABLE IF NOT EXISTS jobcheck_test_items (resource text, name text)")
    return pg_conn


def pg_names(conn: Any, resource: str) -> list[str]:
    rows = conn.execute("SELECT name FROM jobcheck_test_items WHERE resource = %s ORDER BY name", (resource,))
    return [n for (n,) in rows]


def test_postgres_fencing_accepts_newer_and_rejects_older(pg: Any, resource: str) -> None:
    with fenced_transaction(pg, resource, 3):
        pg.execute("INSERT INTO jobcheck_test_items VALUES (%s, 'a')", (resource,))
    with fenced_transaction(pg, resource, 3):
        pg.execute("INSERT INTO jobcheck_test_items VALUES (%s, 'b')", (resource,))
    with pytest.raises(StaleTokenError) as info:
        with fenced_transaction(pg, resource, 2):
            pg.execute("INSERT INTO jobcheck_test_items VALUES (%s, 'stale')", (resource,))
    assert (info.value.token, info.value.seen) == (2, 3)
    assert pg_names(pg, resource) == ["a", "b"]
    assert current_fence(pg, resource) == 3


def test_postgres_stale_token_aborts_the_transaction_even_if_the_caller_commits(pg: Any, postgres_dsn: str, resource: str) -> None:
    import psycopg

    with fenced_transaction(pg, resource, 9):
        pass
    conn = psycopg.connect(postgres_dsn)  # not autocommit: an implicit transaction
    try:
        conn.execute("INSERT INTO jobcheck_test_items VALUES (%s, 'before')", (resource,))
        with pytest.raises(StaleTokenError):
            fence(conn, resource, 8)
        with pytest.raises(psycopg.errors.InFailedSqlTransaction):
            conn.execute("INSERT INTO jobcheck_test_items VALUES (%s, 'after')", (resource,))
        conn.commit()  # the server answers ROLLBACK
    finally:
        conn.close()
    assert pg_names(pg, resource) == []


def test_postgres_fence_refuses_to_run_outside_a_transaction(pg: Any, resource: str) -> None:
    with pytest.raises(RuntimeError, match="inside a transaction"):
        fence(pg, resource, 1)
    with pg.transaction():
        assert fence(pg, resource, 1) == 1
    with pytest.raises(FencingNotInstalled):
        with pg.transaction():
            fence(pg, resource, 1, table="jobcheck_missing_fences")


def test_postgres_a_stale_writer_waiting_on_the_row_lock_is_rejected(pg: Any, postgres_dsn: str, resource: str) -> None:
    import psycopg

    new = psycopg.connect(postgres_dsn)
    old = psycopg.connect(postgres_dsn, autocommit=True)
    try:
        fence(new, resource, 5)  # holds the fence row lock until commit
        outcome = _race_a_stale_writer(new, old, resource, "INSERT INTO jobcheck_test_items VALUES (%s, %s)", (resource,))
        assert isinstance(outcome, StaleTokenError)
        assert pg_names(pg, resource) == ["fresh"]
    finally:
        new.close()
        old.close()


# ----------------------------------------------------------------------------- Redis


def test_redis_fenced_ops_run_only_with_a_fresh_token(redis_client: Any, resource: str) -> None:
    f = RedisFence(redis_client, prefix="jobcheck-test")
    counter, log = f"jobcheck-test:{{{resource}}}:counter", f"jobcheck-test:{{{resource}}}:log"
    assert f.write(resource, 2, ("INCRBY", counter, 5), ("RPUSH", log, "two")) == [5, 1]
    assert f.write(resource, 2, ("INCR", counter)) == [6]  # equal token: same lease
    with pytest.raises(StaleTokenError) as info:
        f.write(resource, 1, ("INCR", counter), ("RPUSH", log, "one"))
    assert (info.value.token, info.value.seen) == (1, 2)
    assert redis_client.get(counter) == b"6"  # the stale ops did not run
    assert redis_client.lrange(log, 0, -1) == [b"two"]
    assert f.write(resource, 3, ("GET", counter)) == [b"6"]
    assert f.current(resource) == 3
    with pytest.raises(ValueError):
        f.write(resource, 3, ("PING",))


def test_redis_fenced_script_sees_its_own_keys_and_args(redis_client: Any, resource: str) -> None:
    f = RedisFence(redis_client, prefix="jobcheck-test")
    key = f"jobcheck-test:{{{resource}}}:value"
    script = f.script("redis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[1])")
    assert script(resource, 10, [key], ["ten"]) == b"ten"
    with pytest.raises(StaleTokenError):
        script(resource, 9, [key], ["nine"])
    assert redis_client.get(key) == b"ten"


def test_redis_concurrent_fenced_writers_never_accept_an_older_token(redis_url: str, resource: str) -> None:
    import redis

    log = f"jobcheck-test:{{{resource}}}:log"
    accepted: list[int] = []
    lock = threading.Lock()

    def writer(tokens: range) -> None:
        client = redis.Redis.from_url(redis_url)
        f = RedisFence(client, prefix="jobcheck-test")
        for t in tokens:
            try:
                f.write(resource, t, ("RPUSH", log, t))
                with lock:
                    accepted.append(t)
            except StaleTokenError:
                pass
        client.close()

    threads = [threading.Thread(target=writer, args=(range(i, 400, 4),)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    client = redis.Redis.from_url(redis_url)
    stored = [int(x) for x in client.lrange(log, 0, -1)]
    client.close()
    assert stored == sorted(stored) and len(set(stored)) == len(stored)
    assert sorted(accepted) == stored
