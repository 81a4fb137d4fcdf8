"""What an `except` clause does with what it caught, for the rules about failures nobody sees."""

from __future__ import annotations

from ..analysis.jobs import Anchor
from ..analysis.program import exclusive
from ..analysis.summary import FunctionSummary, Handler
from ..effects.catalog import EXHAUSTION_ERRORS

# Calls a handler may make and still say nothing: logs below warning, and printing.
# (A traceback made text says nothing by itself: the log it is handed to decides.)
# `sleep`: waiting for the next round tells no one.
QUIET_CALLS = ("debug", "info", "print", "format_exc", "format_exception", "sleep")
# An exception made text (`str(exc)`, `"failed: {}".format(exc)`) is quiet when a quiet log is all
# it feeds; stored or returned (`job.error = str(exc)`, `return {"error": repr(exc)}`), it records
# the failure.
_TEXT_CALLS = ("str", "repr", "type", "format")  # `type(exc).__name__` too
# Calls that tell a person: logs at warning or above, error trackers, Django's mail to the admins.
REPORTING_CALLS = ("warning", "warn", "error", "exception", "critical", "fatal", "capture_exception",
                   "capture_message", "captureException", "mail_admins")
EVERY_FAILURE = ("Exception", "BaseException", "builtins.Exception", "builtins.BaseException")


def handler_anchor(path: str, handler: Handler) -> Anchor:
    """Where a finding about an `except` clause points: its `except` keyword."""
    return Anchor(path, handler.line, handler.col, handler.line, handler.col + len("except"))


def handler_calls(fn: FunctionSummary, handler: Handler) -> list:
    """The calls in the handler's body, resolved or not (`Handler.calls` keeps only the resolved),
    less an exception made text for a quiet log (`log.debug("%s", str(exc))`)."""
    later = [h.line for h in fn.handlers if h.try_id == handler.try_id and h.line > handler.line]
    end = min(later, default=float("inf"))
    mine = [i for i, ev in enumerate(fn.events)
            if ev.kind == "call" and handler.try_id in ev.handlers and handler.line <= ev.line < end]
    fed = {src for i in mine if fn.events[i].attr in QUIET_CALLS
           for srcs in (*fn.events[i].argsrc, *fn.events[i].kwsrc.values()) for src in srcs}
    return [fn.events[i] for i in mine if not (fn.events[i].attr in _TEXT_CALLS and i in fed)]


def says_nothing(fn: FunctionSummary, handler: Handler) -> bool:
    """Does the handler neither raise again, nor hand the exception on (`result = e`, `q.put(e)`),
    nor report anything (a log at warning or above, an error tracker, a retry, a helper of the
    application: anything but `QUIET_CALLS`), and does
    nothing report once the `try` is over either (`pass  # and go on to log the error`)?"""
    if handler.reraises or handler.hands_over or not all(ev.attr in QUIET_CALLS for ev in handler_calls(fn, handler)):
        return False
    inside = guarded(fn, handler)
    return not any(ev.kind == "call" and ev.attr in REPORTING_CALLS and ev.line > handler.line
                   and handler.try_id not in ev.tries and handler.try_id not in ev.handlers
                   and not (inside and exclusive(inside[0], ev)) for ev in fn.events)


def guarded(fn: FunctionSummary, handler: Handler) -> list:
    """The events of the `try` body the handler covers."""
    return [ev for ev in fn.events if handler.try_id in ev.tries]


def catches_every_failure(handler: Handler) -> bool:
    """A bare `except`, `except Exception`, `except BaseException`."""
    return all(t in EVERY_FAILURE for t in handler.types)


def exhaustion_caught(fn: FunctionSummary, handler: Handler) -> str | None:
    """How the handler catches the end of the retries, if it does."""
    named = [t for t in handler.types if t and t.rpartition(".")[2] in EXHAUSTION_ERRORS]
    if named:
        return f"`except {named[0].rpartition('.')[2]}`"
    if catches_every_failure(handler) and any(
            ev.kind == "call" and ev.attr == "retry" for ev in guarded(fn, handler)):
        caught = f"except {handler.types[0]}" if handler.types else "except"
        return f"`{caught}` around `retry()` (which raises when no retry is left)"
    return None
