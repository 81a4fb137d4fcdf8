"""JC205 swallowed-job-failure: a job's own body catches every exception (a bare `except`,
`except Exception`) and neither raises again nor reports anything at warning level or above, so a
run that failed ends as a success: no retry, no failure state, nothing for a person to see.

Only the function the scheduler calls counts (its outcome is the run's), and only a `try` that
is not inside a loop: catching per item so that one bad item does not stop a batch is a choice,
not a silent failure. A loop that runs until stopped (`while True:`, `while not stop.is_set():`)
is no batch but the job's own schedule: a `try` around its round counts, unless the round works on
an item it took, before the `try` or in it (a queue worker), goes on with other work after the `try` (the
`try` guards a step), or the loop is a retry loop. A handler that hands the exception on
(`self.error = exc`, `q.put(exc)`, a local passed on later) or calls anything but a log below warning (a reporting helper of the application,
`self.retry`, Sentry) is taken to report; a `try` around clean-up alone (`conn.close()`, `subscriber.stop()`) is not
the run's outcome, nor is a `try` in a handler that reported the failure it caught (what it keeps
is a failure to record one already told).
"""

from __future__ import annotations

from ..analysis.jobs import STRUCTURAL_KINDS, caught_names
from ..analysis.words import TAKING_WORDS
from ..analysis.summary import BUILTINS, LOG_METHODS, FunctionSummary, Handler
from ..model import Confidence
from .context import CheckContext
from .handlers import (
    catches_every_failure,
    exhaustion_caught,
    guarded,
    handler_anchor,
    handler_calls,
    says_nothing,
)

CODES = ("JC205",)
LOGS = ("debug", "info", "print")  # the quiet calls that log


def run(ctx: CheckContext):
    project = ctx.project
    for site in project.jobs.values():
        if site.kind in STRUCTURAL_KINDS:
            continue
        fn = project.functions.get(site.function)
        if fn is None:
            continue
        path = project.function_module[site.function].path
        for handler in fn.handlers:
            if not _swallows(project, fn, handler):
                continue
            caught = "a bare `except`" if not handler.types else f"`except {', '.join(caught_names(handler))}`"
            logs = any(ev.attr in LOGS for ev in handler_calls(fn, handler))  # below warning, or `_swallows` would not hold
            said = "logs it below warning" if logs else "says nothing"
            yield ctx.finding(
                "JC205",
                handler_anchor(path, handler),
                f"job `{site.display}` catches every failure here ({caught}), {said} and does not raise again: "
                f"a run that failed ends as a success, with no retry and no failure anyone sees. Let it raise "
                f"(or re-raise after cleaning up), or report it (`logger.exception`, your error tracker)",
                confidence=Confidence.MEDIUM if logs else Confidence.HIGH,
                job=site.display,
                function=site.function,
            )


def _swallows(project, fn: FunctionSummary, handler: Handler) -> bool:
    if not catches_every_failure(handler) or not says_nothing(fn, handler) or exhaustion_caught(fn, handler):
        return False  # (retries that run out, caught: JC204 says so)
    if handler.recovers:
        return False  # `self.rescan = True`: it sets what the code after it acts on, a recovery
    if handler.in_finally:
        return False  # `finally: try: client.clear_scroll(sid) except: pass`: clean-up after the work
    events = guarded(fn, handler)
    calls = [ev for ev in events if ev.kind == "call"]
    if not calls:
        return False  # nothing in the `try` can fail but names and arithmetic
    if any(_cleans_up(project, ev) for ev in calls) and all(
            _cleans_up(project, ev) or (ev.name or "") in BUILTINS for ev in calls):
        # `try: conn.close() except Exception: pass`, `sock = getattr(conn, "sock", None); sock.shutdown(2)`:
        # a failed clean-up is not a failed run
        return False
    if any(_logs(ev) for ev in calls) and all(_logs(ev) or (ev.name or "") in BUILTINS for ev in calls):
        return False  # `try: log.debug("got %s" % report["name"]) except Exception: pass`: only a log line failed
    if _in_a_reporting_handler(fn, events):
        return False  # `except Exception: log.error(...); try: mark_failed() except Exception: pass`: reported
    # In a loop: per item, so the others run; but a loop that runs until stopped is the job's own
    # schedule (`while not stop.is_set(): try: ... except Exception: log.debug(...)`), and a `try`
    # around its round is the run's outcome. Not so a retry loop (it goes round to try again), nor
    # a round that works on an item it took (`item = queue.get(); try: save(item)`).
    rounds = set(fn.forever) - {loop[0] for loop in fn.retry_loops}
    shared = set.intersection(*(set(ev.loops) for ev in events))
    if shared - rounds:
        return False
    if shared & set(fn.forever) and (any(loop in fn.forever and loop not in shared for ev in events for loop in ev.loops)
                                     or any(ev.attr in _SERVES_UNTIL_STOPPED for ev in calls)):
        # The `try` holds a loop that runs until stopped, or a call that serves until stopped: a
        # session (`while True: conn = connect(); try: while not stop: listen(conn) except
        # Exception: log.debug(...)`) whose end the enclosing loop answers by starting the next
        # one, not a run ending as a success.
        return False
    return not shared or not (_works_on_a_taken_item(fn, handler, shared) or _part_of_the_round(project, fn, handler, shared))


def _in_a_reporting_handler(fn: FunctionSummary, events: list) -> bool:
    """Is the `try` in the handler of another, which reports the failure it caught? What the
    inner one keeps is a failure of handling that (a status not saved), not the run's."""
    for try_id in set.intersection(*(set(ev.handlers) for ev in events)):
        clauses = sorted((h for h in fn.handlers if h.try_id == try_id), key=lambda h: h.line)
        clause = next((h for h in reversed(clauses) if h.line <= events[0].line), None)
        if clause is not None and not says_nothing(fn, clause):
            return True
    return False


# Calls that serve until stopped (`httpd.serve_forever()`, pika's `start_consuming()`): a `try` around one
# is a session the enclosing loop starts again, as one holding a loop of its own.
_SERVES_UNTIL_STOPPED = ("serve_forever", "run_forever", "start_consuming")

# What a round does beside its work: wait for the next one, log.
_PAUSES = ("sleep", "wait", "is_set", "debug", "info", "warning", "warn", "error", "exception", "critical", "log",
           "print")


def _part_of_the_round(project, fn: FunctionSummary, handler: Handler, rounds: set) -> bool:
    """The `try` guards one step of the round, and the round goes on with other work after it,
    after a failure too (`try: flush_digests() except Exception: log.debug(...)`, then
    `flush_queue()`): the step's failure is not the run's. Not when the handler leaves the round
    (`continue`, `break`, `return`), nor when what follows is a pause, a log, clean-up or
    bookkeeping (`time.monotonic()`, `metric.inc()`)."""
    if handler.leaves:
        return False
    effects = {ce.event_index for ce in project.call_effects(fn.qualname)}
    # What a pause or a log is given, or is called on, is part of it (`time.sleep(update_delay(elapsed))`,
    # `self.logger().info(...)`).
    pausing = {i for ev in fn.events if ev.kind == "call" and ev.attr in _PAUSES
               for src in (*ev.argsrc, *ev.kwsrc.values(), ev.receiver_src) for i in src}
    # Work of the round: an external effect, or a call of the project's own code.
    return any(ev.kind == "call" and rounds.intersection(ev.loops) and not ev.in_test and ev.attr not in _PAUSES
               and i not in pausing
               and not _cleans_up(project, ev) and ev.line > handler.line and handler.try_id not in ev.tries
               and handler.try_id not in ev.handlers and (i in effects or project.callees(ev))
               for i, ev in enumerate(fn.events))


# Clean-up calls: their failure leaves the run's work done. Not `cancel`, `flush`, `remove`:
# cancelling an order, flushing a producer, removing an object may be the work itself.
_CLEANUP = ("close", "aclose", "shutdown", "stop", "terminate", "kill", "disconnect", "quit", "join")
_FILE_CLEANUP = ("os.unlink", "os.remove", "os.rmdir", "shutil.rmtree")


def _cleans_up(project, ev) -> bool:
    # `self._stop_event.set()`, an event set with nothing given (a cache's `set(key, value)` is
    # work): telling others the run ended is its clean-up.
    return ev.attr in _CLEANUP or (project.canonical(ev.name) or "") in _FILE_CLEANUP or (
        ev.attr == "unlink" and "Path" in (ev.name or "")) or (ev.attr == "set" and not ev.args and not ev.kwargs)


_LEVELS = ("logging.DEBUG", "logging.INFO", "logging.WARNING", "logging.WARN", "logging.ERROR", "logging.CRITICAL")


def _logs(ev) -> bool:
    """A log line: a logger's method, a call of a logger held by the object (`self.__logger(
    logging.DEBUG, ...)`), a print."""
    return (ev.attr in LOG_METHODS or ev.attr == "print" or (ev.attr or "").lower().endswith("logger")
            or any(a and a[0] == "name" and a[1] in _LEVELS for a in ev.args))


# Calls that take the next item of a queue, a stream or a list.
_TAKES = ("get", "get_nowait", "pop", "popleft", "recv", "receive", "receive_messages", "next", "dequeue", "take",
          "basic_get", "blpop", "brpop", "lpop", "rpop", "brpoplpush", "blmove", "xread", "xreadgroup", "poll")


# Takes that no dict's `get(key)` or list's `pop(i)` could be mistaken for, given what they take from.
_TAKES_FROM = ("heapq.heappop",)
# A wait around a take (`await asyncio.wait_for(queue.get(), timeout=1.0)`) takes what it takes.
_WAITS_AROUND = ("asyncio.wait_for", "asyncio.tasks.wait_for")


def _takes(ev) -> bool:
    return ev.attr in _TAKES or (ev.attr or "").lstrip("_").partition("_")[0] in TAKING_WORDS \
        or ev.name in _TAKES_FROM or _waited_take(ev)


def _waited_take(ev) -> bool:
    inner = ev.args[0] if ev.name in _WAITS_AROUND and ev.args else None
    if not (inner and inner[0] == "call" and not inner[2]):
        return False
    last = str(inner[1]).rpartition(".")[2]
    return last in _TAKES or last.lstrip("_").partition("_")[0] in TAKING_WORDS


def _works_on_a_taken_item(fn: FunctionSummary, handler: Handler, loops: set) -> bool:
    """Is something the `try` does given an item the same round took, before it or in it
    (`item = queue.get()`, `try: item = queue.get(timeout=0.1); record(item)`)? A value read for
    the round (`since = last_run()`) is not an item."""
    inside = [ev for ev in fn.events if handler.try_id in ev.tries]
    start = min((ev.line, ev.col) for ev in inside)
    first = min((i for i, ev in enumerate(fn.events) if handler.try_id in ev.tries and ev.kind == "call"),
                key=lambda i: (fn.events[i].line, fn.events[i].col), default=None)
    # Before the `try`, or in it: as the first thing it does (a queue's `get(timeout=...)`, not a
    # dict's `get(key)`), or a take no `get` could be mistaken for (`while not q.empty(): task =
    # q.get_nowait()`).
    taken = {i for i, ev in enumerate(fn.events) if ev.kind == "call" and _takes(ev) and loops <= set(ev.loops)
             and ((handler.try_id not in ev.tries and (ev.line, ev.col) < start)
                  or ((not ev.args or ev.name in _TAKES_FROM or _waited_take(ev))
                      and (i == first or (handler.try_id in ev.tries and ev.attr != "get"))))}
    return any(taken.intersection(src) for ev in inside
               for src in (*ev.argsrc, *ev.kwsrc.values(), ev.receiver_src))
