"""Throwaway PostgreSQL and Redis servers, for tests of code that uses leases or fencing on them.

``throwaway_postgres()`` and ``throwaway_redis()`` are context managers: each starts a private
server from the binaries installed on this machine, in a new temporary directory, listening on
a free port of 127.0.0.1, and yields its URL; on exit the server is stopped and the directory
removed, and a watchdog process does the same if this process dies first. Several test sessions
at once never share a server, a port or a directory.

PostgreSQL refuses to run as root: under root the servers run as the ``postgres`` (or ``redis``)
account if it exists, else ``nobody``, so the temporary directory must be reachable by that
account (the default, /tmp, is).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from urllib.parse import quote

from ._server_process import Scratch, ServerStartError, unprivileged_account

__all__ = ["ServerNotInstalled", "ServerStartError", "throwaway_postgres", "throwaway_redis"]

# Debian and Ubuntu install each PostgreSQL major version here, off PATH.
_POSTGRES_VERSIONS = Path("/usr/lib/postgresql")


class ServerNotInstalled(LookupError):
    """The server's binaries are not installed on this machine."""


def _version_key(bindir: Path) -> tuple[int, ...]:
    return tuple(int(part) for part in bindir.parent.name.split(".") if part.isdigit())


def postgres_binaries() -> tuple[Path, Path]:
    """``initdb`` and ``postgres``: from PATH, else from the newest /usr/lib/postgresql/*/bin."""
    initdb, postgres = shutil.which("initdb"), shutil.which("postgres")
    if initdb and postgres:
        return Path(initdb), Path(postgres)
    bindirs = sorted(_POSTGRES_VERSIONS.glob("*/bin"), key=_version_key, reverse=True)
    for bindir in bindirs:
        if (bindir / "initdb").is_file() and (bindir / "postgres").is_file():
            return bindir / "initdb", bindir / "postgres"
    raise ServerNotInstalled(f"PostgreSQL's initdb and postgres are neither on PATH nor in {_POSTGRES_VERSIONS}/*/bin")


def redis_binary() -> Path:
    found = shutil.which("redis-server")
    if found is None:
        raise ServerNotInstalled("redis-server is not on PATH")
    return Path(found)


@contextmanager
def throwaway_postgres(*, user: str = "jobcheck", database: str = "jobcheck", timeout: float = 60.0) -> Iterator[str]:
    """A new PostgreSQL server; yields ``postgresql://USER@127.0.0.1:PORT/DATABASE``.

    ``user`` is the server's superuser and owns ``database``; any client on loopback may log in
    as it without a password. Durability is off (``fsync``, ``full_page_writes``): nothing is
    meant to survive. ``timeout`` bounds ``initdb`` and the start together, in seconds.
    """
    initdb, postgres = postgres_binaries()
    try:
        import psycopg
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("throwaway_postgres needs psycopg 3: pip install 'jobcheck[postgres]'") from exc
    deadline = time.monotonic() + timeout
    with closing(Scratch("jobcheck-pg-", unprivileged_account("postgres"))) as scratch:
        data = scratch.path / "data"
        scratch.run([str(initdb), "-D", str(data), "-U", user, "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"],
                    deadline=deadline)

        def command(port: int) -> list[str]:
            return [str(postgres), "-D", str(data), "-p", str(port), "-c", "listen_addresses=127.0.0.1",
                    "-c", f"unix_socket_directories={scratch.path}",
                    "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]

        def dsn(port: int, dbname: str) -> str:
            return f"postgresql://{quote(user, safe='')}@127.0.0.1:{port}/{quote(dbname, safe='')}"

        def ours_answers(port: int) -> bool:
            # Our data directory, not just any server: another may have taken the port first.
            try:
                with psycopg.connect(dsn(port, "postgres"), connect_timeout=2) as conn:
                    return conn.execute("SELECT current_setting('data_directory')").fetchone() == (str(data),)
            except psycopg.Error:  # not accepting connections yet, or not ours
                return False

        # SIGQUIT: immediate shutdown, the fastest way down when the data does not matter.
        with scratch.serve(command, ready=ours_answers, stop_signal=signal.SIGQUIT, deadline=deadline) as port:
            if database != "postgres":
                with psycopg.connect(dsn(port, "postgres"), autocommit=True) as conn:
                    conn.execute(psycopg.sql.SQL("CREATE DATABASE {}").format(psycopg.sql.Identifier(database)))
            yield dsn(port, database)


@contextmanager
def throwaway_redis(*, timeout: float = 30.0) -> Iterator[str]:
    """A new Redis server without persistence; yields ``redis://127.0.0.1:PORT/0``."""
    redis_server = redis_binary()
    deadline = time.monotonic() + timeout
    with closing(Scratch("jobcheck-redis-", unprivileged_account("redis"))) as scratch:

        def command(port: int) -> list[str]:
            return [str(redis_server), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(scratch.path),
                    "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", ""]

        def ours_answers(port: int) -> bool:
            return _redis_dir(port) == os.fsencode(os.path.realpath(scratch.path))

        with scratch.serve(command, ready=ours_answers, stop_signal=signal.SIGTERM, deadline=deadline) as port:
            yield f"redis://127.0.0.1:{port}/0"


def _redis_dir(port: int) -> bytes | None:
    """The server's working directory, asked in Redis's inline protocol (no client library
    needed); None if nothing answers as a Redis server there."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"CONFIG GET dir\r\n")
            reply = b""
            # An array of two bulk strings: *2, $3, dir, $N, the directory - five lines.
            while reply.count(b"\r\n") < 5 and not reply.startswith(b"-"):
                chunk = sock.recv(4096)
                if not chunk:
                    return None
                reply += chunk
    except OSError:
        return None
    lines = reply.split(b"\r\n")
    return lines[4] if lines[:3] == [b"*2", b"$3", b"dir"] else None
