"""Server processes started in a temporary directory, and gone with it afterwards.

A ``Scratch`` is the directory; ``Scratch.serve`` starts a server there on a free loopback port
and stops it again. Cleanup happens when the ``with`` blocks exit, including on Ctrl-C. For the
cases no ``finally`` covers (this process killed, or interrupted again while cleaning up) a
watchdog process (``_reaper.py``) waits for this process's pipe to close and then stops the
servers and removes the directory itself. Forked children inherit the ``with`` blocks but never
run their cleanup: only the process that started a server stops it.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["Scratch", "ServerStartError", "unprivileged_account"]

_REAPER = Path(__file__).with_name("_reaper.py")
_STOP_SECONDS = 10.0  # then SIGKILL
_PORT_ATTEMPTS = 5  # another process may take the free port before the server binds it
_LOG_TAIL_CHARS = 3000


class ServerStartError(RuntimeError):
    """A throwaway server did not start; the message ends with what it logged."""


def unprivileged_account(*names: str) -> pwd.struct_passwd | None:
    """The account servers run as: None (ourselves) unless we are root, which PostgreSQL refuses
    to run as; then the first of ``names`` that exists, else ``nobody``."""
    if os.geteuid() != 0:
        return None
    for name in (*names, "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise ServerStartError(f"running as root and none of the accounts {', '.join((*names, 'nobody'))} exists")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Scratch:
    """A temporary directory owned by ``account`` (None: by us), where servers run as that
    account; ``close()`` removes it (use ``with contextlib.closing(Scratch(...))``)."""

    def __init__(self, prefix: str, account: pwd.struct_passwd | None) -> None:
        self._owner_pid = os.getpid()
        self._account = account
        self._watched: set[int] = set()  # servers started and not yet stopped
        self.path = Path(tempfile.mkdtemp(prefix=prefix))
        try:
            if account is not None:
                os.chown(self.path, account.pw_uid, account.pw_gid)
            self._reaper = subprocess.Popen(
                [sys.executable, "-I", str(_REAPER), str(self.path)],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                text=True, start_new_session=True,  # out of reach of the terminal's Ctrl-C
            )
        except BaseException:
            shutil.rmtree(self.path, ignore_errors=True)
            raise

    def close(self) -> None:
        if os.getpid() != self._owner_pid:
            return
        shutil.rmtree(self.path, ignore_errors=True)
        if not self._watched:  # a stop interrupted (a second Ctrl-C) leaves a server to the reaper
            self._tell("release")
        try:
            self._reaper.stdin.close()  # type: ignore[union-attr]
        except BrokenPipeError:  # the reaper is gone already
            pass
        self._reaper.wait()

    def _tell(self, order: str) -> None:
        try:
            self._reaper.stdin.write(order + "\n")  # type: ignore[union-attr]
            self._reaper.stdin.flush()  # type: ignore[union-attr]
        except (BrokenPipeError, ValueError):  # the reaper is gone: nothing left to tell it
            pass

    def _as_account(self) -> dict[str, Any]:
        """Popen arguments that run a command as the account, from inside the directory."""
        options: dict[str, Any] = {"cwd": self.path}
        if self._account is not None:
            options.update(user=self._account.pw_uid, group=self._account.pw_gid, extra_groups=[])
        return options

    def run(self, argv: list[str], *, deadline: float) -> None:
        """Run a setup command (initdb) as the account; ServerStartError with its output if it fails."""
        try:
            done = subprocess.run(
                argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False,
                timeout=max(deadline - time.monotonic(), 0.1), **self._as_account(),
            )
        except subprocess.TimeoutExpired as exc:
            raise ServerStartError(f"{argv[0]} did not finish in time") from exc
        if done.returncode != 0:
            raise ServerStartError(f"{argv[0]} failed with exit status {done.returncode}:\n{done.stdout}{done.stderr}")

    @contextmanager
    def serve(self, command: Callable[[int], list[str]], *, ready: Callable[[int], bool],
              stop_signal: int, deadline: float) -> Iterator[int]:
        """Run ``command(port)`` on a free port until ``ready(port)``; yield the port; stop it."""
        attempts_left = _PORT_ATTEMPTS
        while True:
            attempts_left -= 1
            port = free_port()
            process = self._start(command(port), stop_signal)
            try:
                if self._wait_ready(process, port, ready, deadline, retry_taken_port=attempts_left > 0):
                    yield port
                    return
            finally:
                self._stop(process, stop_signal)

    def _start(self, argv: list[str], stop_signal: int) -> subprocess.Popen[bytes]:
        with open(self.path / "server.log", "wb") as log:  # each attempt logs afresh
            process = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, which a kill can take down whole
                **self._as_account(),
            )
        self._tell(f"watch {process.pid} {int(stop_signal)}")
        self._watched.add(process.pid)
        return process

    def _wait_ready(self, process: subprocess.Popen[bytes], port: int, ready: Callable[[int], bool],
                    deadline: float, *, retry_taken_port: bool) -> bool:
        """True once the server answers; False if it lost its port and may retry on another."""
        name = Path(process.args[0]).name  # type: ignore[index]
        while not ready(port):
            if process.poll() is not None:
                log = self.log_tail()
                if retry_taken_port and "Address already in use" in log:
                    return False
                raise ServerStartError(f"{name} exited with status {process.returncode} before it answered:\n{log}")
            if time.monotonic() > deadline:
                raise ServerStartError(f"{name} did not answer on 127.0.0.1:{port} in time:\n{self.log_tail()}")
            time.sleep(0.05)
        return True

    def _stop(self, process: subprocess.Popen[bytes], stop_signal: int) -> None:
        if os.getpid() != self._owner_pid:
            return
        if process.poll() is None:
            process.send_signal(stop_signal)
            try:
                process.wait(_STOP_SECONDS)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)  # the server and every process it started
                process.wait()
        self._tell(f"forget {process.pid}")
        self._watched.discard(process.pid)

    def log_tail(self) -> str:
        try:
            text = (self.path / "server.log").read_text(errors="replace")
        except OSError:
            return ""
        return text[-_LOG_TAIL_CHARS:]
