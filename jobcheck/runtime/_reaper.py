"""Watchdog for throwaway servers, run as a script: ``python -I _reaper.py DIRECTORY``.

Its owner (``_server_process.Scratch``) writes lines to its standard input:

* ``watch PID SIGNAL`` - a server started in DIRECTORY, leader of its own process group, and
  the signal that stops it;
* ``forget PID`` - that server has exited and its owner has reaped it;
* ``release`` - the owner cleaned up by itself: exit and touch nothing.

End of input without ``release`` means the owner died without cleaning up (SIGKILL, SIGTERM,
out of memory): then this process stops every watched server, kills the process groups of those
still alive after a grace period, and removes DIRECTORY. Standard library only: it runs isolated
(``-I``) from a file, so it works wherever the owner's interpreter does.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time

GRACE_SECONDS = 10.0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, under another user: we only watch our own servers
        return True
    return True


def _send(pid: int, signum: int, *, group: bool = False) -> None:
    try:
        if group:
            os.killpg(pid, signum)
        else:
            os.kill(pid, signum)
    except ProcessLookupError:
        pass


def _read_orders(watched: dict[int, int]) -> bool:
    """Follow the owner's orders until end of input; True if it released us."""
    for line in sys.stdin:
        order, *args = line.split()
        if order == "release":
            return True
        if order == "watch":
            watched[int(args[0])] = int(args[1])
        elif order == "forget":
            watched.pop(int(args[0]), None)
    return False


def main(directory: str) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # an interrupted owner is exactly our case
    watched: dict[int, int] = {}
    if _read_orders(watched):
        return
    for pid, signum in watched.items():
        _send(pid, signum)
    deadline = time.monotonic() + GRACE_SECONDS
    alive = [pid for pid in watched if _alive(pid)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [pid for pid in alive if _alive(pid)]
    for pid in alive:
        _send(pid, signal.SIGKILL, group=True)
    shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1])
