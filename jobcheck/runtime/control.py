"""What a job calls to cooperate with the verification harness. No-ops outside it.

``checkpoint(name)`` marks a place where the harness may pause the run (to let another run
overlap it, or to let its lease expire), kill it with SIGKILL, or make it fail. Put one right
after a lease is acquired and between the steps that matter.

``record_effect(kind, target)`` reports an effect the harness cannot see by itself (a write to
a system it has no sink for). It is the plain callable hook of the effect ledger.

In a harness child process each call is a round trip over a pipe to the harness, which decides
what happens next; outside the harness both return at once and do nothing, so they can stay in
production code.
"""

from __future__ import annotations

import threading
from typing import Any

from .errors import InjectedFailure

__all__ = ["checkpoint", "record_effect", "in_harness"]

_channel: Any = None  # the child's end of the control pipe, set only in harness children
_lock = threading.Lock()  # one request/answer at a time, whatever thread the job uses


def in_harness() -> bool:
    return _channel is not None


def checkpoint(name: str) -> None:
    """A point where the harness may pause, kill or fail this run."""
    if _channel is not None:
        _ask(("checkpoint", str(name), None, None, None))


def record_effect(kind: str, target: Any, *, key: Any = None, **detail: Any) -> None:
    """Report one effect of ``kind`` on ``target``; ``key`` marks it as deduplicated by the far end.

    ``target`` may be a list (or tuple or set) of targets reached by one action, as one message
    reaches all its recipients: one event, so the harness never stops the run between them."""
    if _channel is not None:
        targets = [str(t) for t in target] if isinstance(target, (list, tuple, set, frozenset)) else [str(target)]
        _ask(("effect", str(kind), targets, None if key is None else str(key), detail))


def _ask(message: tuple) -> None:
    with _lock:
        _channel.send(message)
        answer = _channel.recv()  # a kill arrives as SIGKILL while we wait here
    if answer == "fail":
        what = f"checkpoint {message[1]!r}" if message[0] == "checkpoint" else f"{message[1]} effect on {', '.join(message[2])}"
        raise InjectedFailure(f"jobcheck: injected failure at {what}")


def _install(channel: Any) -> None:
    global _channel
    _channel = channel
