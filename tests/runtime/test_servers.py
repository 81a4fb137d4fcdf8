"""Throwaway PostgreSQL and Redis servers: they start, answer, never collide, and leave nothing behind."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from jobcheck.runtime import (
    ServerNotInstalled,
    ServerStartError,
    _server_process,
    servers,
    throwaway_postgres,
    throwaway_redis,
)

ROOT = Path(__file__).resolve().parents[2]
PERSISTENT_PORTS = {5432, 6379}  # where .ci/services.sh starts long-lived servers by hand


def port_of(url: str) -> int:
    port = urlsplit(url).port
    assert port is not None
    return port


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def refuses(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except OSError:
        return True
    return False


def eventually(condition: Any, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


@pytest.fixture
def temp_root(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh temporary folder for the servers' directories, reachable by the account they run
    as (pytest's tmp_path is not, under root), so a test can see that nothing is left in it."""
    root = Path(tempfile.mkdtemp(prefix="jobcheck-test-servers-"))
    root.chmod(0o755)
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    yield root
    shutil.rmtree(root, ignore_errors=True)


def redis_facts(url: str) -> tuple[Path, int]:
    """The server's own word on its directory and process id."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        return Path(client.config_get("dir")["dir"]), int(client.info("server")["process_id"])
    finally:
        client.close()


@pytest.mark.usefixtures("postgres_installed")
def test_throwaway_postgres_answers_beside_the_session_server_and_leaves_nothing(
        postgres_dsn: str, temp_root: Path) -> None:
    import psycopg

    with throwaway_postgres() as dsn:
        assert port_of(dsn) not in PERSISTENT_PORTS | {port_of(postgres_dsn)}
        with psycopg.connect(dsn) as conn:
            user, database, data, backend = conn.execute(
                "SELECT current_user, current_database(), current_setting('data_directory'), pg_backend_pid()"
            ).fetchone()
            postmaster = int((Path(data) / "postmaster.pid").read_text().split()[0])
        assert (user, database) == ("jobcheck", "jobcheck")
        assert Path(data).parent.parent == temp_root
        assert Path(data).parent.name.startswith("jobcheck-pg-")
    assert list(temp_root.iterdir()) == []
    assert gone(postmaster) and gone(backend)
    assert refuses(port_of(dsn))
    with psycopg.connect(postgres_dsn) as conn:  # the session's server was not touched
        assert conn.execute("SELECT 1").fetchone() == (1,)


@pytest.mark.usefixtures("redis_installed")
def test_throwaway_redis_answers_and_leaves_nothing(temp_root: Path) -> None:
    import redis

    with throwaway_redis() as url:
        assert port_of(url) not in PERSISTENT_PORTS
        client = redis.Redis.from_url(url)
        assert client.set("k", "v") and client.get("k") == b"v"
        client.close()
        scratch, pid = redis_facts(url)
        assert scratch.parent == temp_root and scratch.name.startswith("jobcheck-redis-")
    assert list(temp_root.iterdir()) == []
    assert gone(pid)
    assert refuses(port_of(url))


@pytest.mark.usefixtures("redis_installed")
def test_a_stop_interrupted_by_a_second_ctrl_c_leaves_the_server_to_the_reaper(
        temp_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_wait = subprocess.Popen.wait

    def interrupted(self: subprocess.Popen, timeout: float | None = None) -> int:
        if timeout is not None and self.args[0].endswith("redis-server"):  # the stop's wait
            raise KeyboardInterrupt
        return real_wait(self, timeout)

    with pytest.raises(KeyboardInterrupt):
        with throwaway_redis() as url:
            _, pid = redis_facts(url)
            monkeypatch.setattr(subprocess.Popen, "wait", interrupted)
    monkeypatch.undo()
    assert eventually(lambda: gone(pid))  # the owner could not finish: its reaper did
    assert list(temp_root.iterdir()) == []


@pytest.mark.usefixtures("redis_installed")
def test_two_at_once_get_their_own_port_directory_and_data() -> None:
    import redis

    with throwaway_redis() as first, throwaway_redis() as second:
        assert port_of(first) != port_of(second)
        assert redis_facts(first)[0] != redis_facts(second)[0]
        one, two = redis.Redis.from_url(first), redis.Redis.from_url(second)
        one.set("only-here", 1)
        assert two.get("only-here") is None
        one.close()
        two.close()


@pytest.mark.usefixtures("redis_installed")
def test_a_port_another_server_takes_first_is_never_mistaken_for_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    """Between picking a free port and binding it, another session's server may take it, and
    would answer on it: the new server must notice, move to another port, and yield its own."""
    with throwaway_redis() as other:
        taken = port_of(other)
        ports = iter([taken])
        real_free_port = _server_process.free_port
        monkeypatch.setattr(_server_process, "free_port", lambda: next(ports, None) or real_free_port())
        with throwaway_redis() as url:
            assert port_of(url) != taken
            assert redis_facts(url)[0] != redis_facts(other)[0]


def test_a_server_that_dies_at_start_raises_with_its_log_and_leaves_nothing(
        monkeypatch: pytest.MonkeyPatch, temp_root: Path) -> None:
    fake = temp_root / "redis-server"
    fake.write_text("#!/bin/sh\necho 'fatal: no such option' >&2\nexit 3\n")
    fake.chmod(0o755)
    monkeypatch.setattr(servers, "redis_binary", lambda: fake)
    with pytest.raises(ServerStartError, match=r"(?s)redis-server exited with status 3 .*fatal: no such option"), throwaway_redis():
        pass  # pragma: no cover - never reached
    assert list(temp_root.iterdir()) == [fake]


def test_missing_binaries_are_reported_as_not_installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(servers, "_POSTGRES_VERSIONS", tmp_path)
    with pytest.raises(ServerNotInstalled, match="initdb and postgres are neither on PATH nor in"), throwaway_postgres():
        pass  # pragma: no cover - never reached
    with pytest.raises(ServerNotInstalled, match="redis-server is not on PATH"), throwaway_redis():
        pass  # pragma: no cover - never reached


@pytest.mark.usefixtures("redis_installed")
def test_a_forked_child_leaving_the_block_does_not_stop_the_server() -> None:
    def hold() -> bool | None:
        with throwaway_redis() as url:
            child = os.fork()
            if child == 0:
                return None  # the child leaves the with block: the cleanup must not run here
            _, status = os.waitpid(child, 0)
            assert os.waitstatus_to_exitcode(status) == 0
            return redis_facts(url)[0].is_dir()

    still_there = hold()
    if still_there is None:
        os._exit(0)
    assert still_there


@pytest.mark.usefixtures("redis_installed")
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_an_owner_killed_while_holding_servers_leaves_nothing(signum: int) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent("""
            import time
            from jobcheck.runtime import throwaway_redis
            with throwaway_redis() as url:
                print(url, flush=True)
                time.sleep(120)
        """)],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        url = holder.stdout.readline().strip()  # type: ignore[union-attr]
        scratch, pid = redis_facts(url)
        holder.send_signal(signum)
        holder.wait(30)
    finally:
        holder.kill()
        holder.stdout.close()  # type: ignore[union-attr]
    assert eventually(lambda: not scratch.exists() and gone(pid)), f"{scratch} or redis {pid} outlived its owner"
    assert refuses(port_of(url))


def test_server_fixtures_use_a_throwaway_server_unless_told_otherwise(postgres_dsn: str, redis_url: str) -> None:
    import psycopg

    if os.environ.get("JOBCHECK_TEST_POSTGRES_DSN"):
        assert postgres_dsn == os.environ["JOBCHECK_TEST_POSTGRES_DSN"]
    else:
        assert port_of(postgres_dsn) not in PERSISTENT_PORTS
        with psycopg.connect(postgres_dsn) as conn:
            data = conn.execute("SELECT current_setting('data_directory')").fetchone()[0]
        assert Path(data).parent.name.startswith("jobcheck-pg-")
    if os.environ.get("JOBCHECK_TEST_REDIS_URL"):
        assert redis_url == os.environ["JOBCHECK_TEST_REDIS_URL"]
    else:
        assert port_of(redis_url) not in PERSISTENT_PORTS
        assert redis_facts(redis_url)[0].name.startswith("jobcheck-redis-")
