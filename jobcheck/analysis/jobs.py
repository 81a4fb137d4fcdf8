"""What the frameworks report: job entry points, registrations, and retry policies."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum


@dataclass(frozen=True)
class Anchor:
    """Where a setting or an entry point is written: path plus a 1-based line, 0-based columns."""

    path: str
    line: int
    col: int
    end_line: int
    end_col: int


class Bound(Enum):
    """Whether retries stop, and whether the count is known."""

    UNLIMITED = "unlimited"  # nothing stops them: `max_retries=None`, Temporal's `maximum_attempts=0`
    KNOWN = "known"  # a count read from the source or the framework's default
    UNKNOWN_COUNT = "unknown count"  # bounded, by a count held in a name (`MAX_RETRIES`) or by time


@dataclass(frozen=True)
class RetryLimit:
    """How many times a policy retries. Built only through the three constructors, and required
    by `RetryPolicy`, so a framework that forgets to say cannot silently read as unlimited."""

    bound: Bound
    count: int | None = None  # the retries allowed, when known
    count_from: str | None = None  # what holds an unknown count, as written: "MAX_RETRIES", "stop_after_delay(60)"

    @classmethod
    def unlimited(cls) -> RetryLimit:
        return cls(Bound.UNLIMITED)

    @classmethod
    def known(cls, count: int) -> RetryLimit:
        return cls(Bound.KNOWN, count=count)

    @classmethod
    def unknown_count(cls, count_from: str) -> RetryLimit:
        return cls(Bound.UNKNOWN_COUNT, count_from=count_from)

    @property
    def bounded(self) -> bool:
        return self.bound is not Bound.UNLIMITED

    def most_key(self) -> tuple[int, int]:
        """Orders limits by how many retries they may allow: known counts by value, then an
        unknown count (it may be large), then no limit."""
        if self.bound is Bound.KNOWN:
            return (0, self.count or 0)
        return (1, 0) if self.bound is Bound.UNKNOWN_COUNT else (2, 0)


@dataclass
class RetryPolicy:
    """What actually makes a function run again after a failure, as configured."""

    setting: str  # how it reads: "autoretry_for=(Exception,), max_retries=3"
    anchor: Anchor
    retries: RetryLimit = field(kw_only=True)  # no default: every policy says whether it stops
    on: tuple[str, ...] | None = None  # auto-retried exceptions; None: any; (): none (explicit only)
    on_result: bool = False  # it goes round on a result it does not accept (tenacity's `retry_if_result`)
    explicit: bool = False  # retried only where the body asks (self.retry, raise Retry)
    from_default: bool = False  # the framework's default, nothing written
    backoff: str | None = None  # "exponential" | "constant" | "none" | None (unknown)
    delay: float | None = None  # seconds before the first retry, where known
    failure_handler: str | None = None  # on_failure, link_error, dead letters: who sees exhaustion
    source: str | None = None  # "wrapper": read from the body of the application's own retry decorator; "loop": a retry loop; "recursion": the function calling itself from a handler; "requeue": a job enqueueing itself from one; "once": a call made again in the handler of its `try`
    loop: tuple[int, int] | None = None  # a retry loop's (loop id, try id): only what that `try` does runs again
    judged: tuple = ()  # it goes round only where these functions, asked about the failure, say so (`Handler.judged`)
    calls: frozenset[int] | None = None  # only these calls of the function run again (a lambda's, handed to a retry helper)
    caught_by: int | None = None  # the `try` whose handler runs the function again (a retry by recursion): what it catches is retried

    @property
    def bounded(self) -> bool:
        return self.retries.bounded

    @property
    def limit(self) -> int | None:
        """The retries allowed when the count is known; None when unlimited or held in a name."""
        return self.retries.count

    @property
    def disabled(self) -> bool:
        return self.retries.count == 0


# Entry points that only wire other jobs together (an Airflow DAG factory, a Dagster job or
# graph): they are listed, but the five questions belong to the tasks they contain.
STRUCTURAL_KINDS = frozenset({"dag", "job", "graph"})


@dataclass
class JobSite:
    """A job entry point: the function a scheduler or worker calls."""

    function: str  # qualname of the function that runs (Task.run for class-based tasks)
    framework: str
    kind: str  # "task", "periodic", "actor", "activity", ...
    path: str
    anchor: Anchor  # the entry point's name (`def name` / `class Name`)
    display: str  # what users call the job: the function, or the Task class
    doc_owner: str  # qualname whose docstring answers the five questions
    triggers: set = field(default_factory=set)  # "enqueue", "schedule"
    retry: RetryPolicy | None = None
    settings: dict = field(default_factory=dict)  # framework settings worth listing


@dataclass
class Registration:
    """A call or setting elsewhere that makes a function a job or configures it (`enqueue(f, retry=...)`)."""

    target: str  # function qualname
    framework: str
    trigger: str  # "enqueue" | "schedule"
    anchor: Anchor
    retry: RetryPolicy | None = None
    kind: str = "task"
    settings: dict = field(default_factory=dict)
    # A helper that enqueues its own parameter: (helper qualname, parameter index, parameter name).
    # The project turns each call of the helper into a registration of what it passes.
    forward: tuple | None = None
    # A class-based job (a subclass's `run` reached through its base's enqueued method): the class
    # is what the job is called, where it is shown and whose docstring answers the five questions.
    owner: str | None = None
    # Read from a shape alone (a decorator's name and body), not from a framework's API: it makes a
    # job only of a function no framework makes one of.
    fallback: bool = False


def loop_policy(fn, loop: tuple, path: str) -> RetryPolicy:
    """The policy of a retry loop as summarised (`FunctionSummary.retry_loops`): it retries what
    its `try` catches, as often as its header says."""
    loop_id, try_id, line, col, end_line, end_col, header, count, count_from, forever, on_result, backoff, delay, written_on = loop
    if forever:
        limit = RetryLimit.unlimited()
    elif count is not None:
        limit = RetryLimit.known(count)
    else:
        limit = RetryLimit.unknown_count(count_from or header)
    on: list[str] | None = []
    for h in retrying_handlers(fn, try_id):
        if not h.types:  # a bare `except:`
            on = None
            break
        on.extend(caught_names(h))
    if written_on:
        on = list(written_on)  # tenacity's `retry=retry_if_exception_type(...)`
    elif on_result or try_id is None:
        # A result it does not accept sends it round without any exception; with no `try` (a call
        # tried until it works, tenacity's `with attempt:`) any failure does.
        on = None
    going = retrying_handlers(fn, try_id) if try_id is not None and not on_result else []
    judged = tuple(dict.fromkeys(n for h in going for n in h.judged)) if going and all(h.judged for h in going) else ()
    return RetryPolicy(f"a retry loop `{header}`", Anchor(path, line, col, end_line, end_col), retries=limit,
                       on=None if on is None else tuple(dict.fromkeys(on)), backoff=backoff, delay=delay,
                       source="loop", loop=(loop_id, try_id), judged=judged)


# Failures that come again with the same input: a handler of these that calls its function again
# does so on what it repaired, not to try the same work once more.
_DETERMINISTIC = frozenset({"TypeError", "ValueError", "KeyError", "IndexError", "LookupError", "AttributeError",
                            "UnicodeError", "UnicodeEncodeError", "UnicodeDecodeError", "NotImplementedError",
                            "AssertionError", "ZeroDivisionError", "RecursionError"})


def recursion_policy(fn, call, path: str) -> RetryPolicy | None:
    """The policy of a function calling itself from an `except` of its own (`call`, resolved to the
    function by the caller): a retry by recursion, the whole function again. It is one only when it
    hands on the same work (each parameter passed as itself) and changes at most parameters that
    have a default: a flag given a literal other than its default retries once (`except
    SMTPServerDisconnected: self.connect(); return self._send(msg, _retrying=True)`), a count given
    anything else retries as often as its default says (`retries=retries - 1` from 15), and the same
    arguments again are bounded by Python's recursion limit only. A call on other data (a batch
    halved, a tree's child), after the handler set an attribute to a constant (`self.template =
    "search"`: a fallback on another setting), or from a handler of failures that come again with the
    same input (`except TypeError`: a repair) is no retry. What runs again is the `try` and what
    precedes it, on what that handler catches."""
    offset = 1 if fn.class_qualname and fn.params[:1] in (["self"], ["cls"]) and call.receiver in ("self", "cls") else 0
    passed = [(fn.params[i + offset] if i + offset < len(fn.params) else None, v) for i, v in enumerate(call.args)]
    passed += [(k, v) for k, v in call.kwargs.items()]
    limit: RetryLimit | None = None
    for param, value in passed:
        if param is None or param == "**":
            return None
        if value and value[0] == "param" and value[1] == param:
            continue
        default = fn.defaults.get(param)
        if default is None and value and value[0] == "name" and len(value) == 2 and value[1].endswith("()"):
            continue  # a parameter written with its type (`tahrir: TahrirDatabase`) is named by the type: itself
        if default is None:
            return None  # other data for a parameter with no default: other work, not an attempt again
        if value and value[0] == "lit" and default[0] == "lit" and value[1] != default[1]:
            limit = limit or RetryLimit.known(1)  # `_retrying=True`: once
        elif default[0] == "lit" and type(default[1]) is int and default[1] > 0:
            limit = RetryLimit.known(default[1])  # `retries=retries - 1` from a count
        elif default[0] == "lit" and type(default[1]) is int or default[0] == "name":
            limit = limit or RetryLimit.unknown_count(param)  # `attempt + 1` from 0, checked against a limit
        # (refreshed headers, a new token: the same work, bounded by nothing of its own)
    return _retried_from_handler(fn, call, path, f"a retry by recursion (`{call.attr}(...)` in an `except` of its own)",
                                 limit or RetryLimit.unknown_count("Python's recursion limit"), "recursion")


def requeue_policy(fn, call, path: str, enqueue, conditional: bool = False) -> RetryPolicy | None:
    """The policy of a job that enqueues itself again from an `except` of its own (`call`: the
    enqueue, or the call of a helper that makes it, `enqueue`): a retry through the queue, the
    whole job again later. Bounded when the enqueue is under a condition (`if attempt < 3:`; in
    a helper on the way to it: `conditional`) or follows one that raises (`if attempt >= 3:
    raise`), else on every failure; its delay is the enqueue's `countdown`."""
    try_id = call.handlers[-1]
    gives_up = any(ev.kind == "raise" and try_id in ev.handlers and ev.branch and ev.line < call.line for ev in fn.events)
    limit = RetryLimit.unknown_count("a condition of the application's") if enqueue.branch or gives_up or conditional \
        else RetryLimit.unlimited()
    policy = _retried_from_handler(fn, call, path, f"a retry by enqueueing itself again (`{enqueue.attr}(...)` in an "
                                                   f"`except` of its own)", limit, "requeue")
    if policy is None:
        return None
    delay = enqueue.kwargs.get("countdown")
    if delay is None and enqueue.attr in ("delay", "send", "kiq", "enqueue"):
        return replace(policy, backoff="none", delay=0.0)  # at once
    if delay and delay[0] == "lit" and type(delay[1]) in (int, float):
        return replace(policy, backoff="constant", delay=float(delay[1]))
    return replace(policy, backoff=None, delay=None)


def rescheduled_policy(fn, path: str) -> RetryPolicy | None:
    """The policy of a function whose `except` stores when to try its work again
    (`Handler.reschedules`: `event.next_retry_at = time.time() + delay`), for a loop that takes
    what is due: a retry through the application's own store, the `try` and what precedes it
    again later, as often as the application's conditions allow; its delay is the one stored."""
    for handler in fn.handlers:
        if not handler.reschedules:
            continue
        inside = [ev for ev in fn.events if ev.handlers and ev.handlers[-1] == handler.try_id
                  and holding_handler(fn, handler.try_id, ev.line) is handler]
        if not inside:
            continue
        policy = _retried_from_handler(fn, inside[0], path, f"a retry through a retry time it stores in an `except` "
                                                            f"of `{fn.name}`",
                                       RetryLimit.unknown_count("a condition of the application's"), "requeue")
        if policy is not None:
            return replace(policy, backoff=None, delay=None)
    return None


def once_policy(fn, again, path: str) -> RetryPolicy | None:
    """The policy of a call made again in a handler of the `try` that made it (`again`, in the
    `except`; `Handler.repeats`): retried once, on what that handler catches, after the handler's
    sleep if it has one. What runs again is for the caller to say (`RetryPolicy.calls`)."""
    return _retried_from_handler(fn, again, path, f"`{again.attr}(...)` called again once in an `except` of `{fn.name}`",
                                 RetryLimit.known(1), "once")


def holding_handler(fn, try_id: int, line: int):
    """The `except` clause of `try_id` that holds `line`, if any."""
    return max((h for h in fn.handlers if h.try_id == try_id and h.line <= line), key=lambda h: h.line, default=None)


def _retried_from_handler(fn, call, path: str, setting: str, limit: RetryLimit, source: str) -> RetryPolicy | None:
    """A function run again from a handler of its own (`call` is in the `except`): what runs
    again is the `try` and what precedes it, on what that handler catches; the handler's sleep is
    the delay. None when the handler is a repair (`except TypeError`) or a fallback on another
    setting."""
    try_id = call.handlers[-1]
    handler = holding_handler(fn, try_id, call.line)  # the `except` the call is in
    if handler is not None and handler.types and all(name.rpartition(".")[2] in _DETERMINISTIC
                                                     for name in caught_names(handler)):
        return None  # `except (TypeError, UnicodeEncodeError)`: the same work fails the same way; a call after it works on repaired data
    if handler is not None and any(handler.line < store[1] < call.line and store[2] in ("self", "cls")
                                   and store[4] and store[4][0] == "lit" for store in fn.stores):
        return None  # `self.template = "search"` first: a fallback on another setting, not the same work again
        # (a connection made again, `self.server = SMTP(host)`, is a repair before the same work)
    # What runs again before the failure: the `try`'s body and what comes before it (not the
    # function's other handlers).
    tried = [i for i, ev in enumerate(fn.events) if try_id in ev.tries]
    start = min((fn.events[i].line for i in tried), default=call.line)
    calls = frozenset(tried + [i for i, ev in enumerate(fn.events) if ev.line < start and not ev.handlers])
    on = caught_names(handler) if handler is not None and handler.types else None
    waits = [ev for ev in fn.events if ev.kind == "call" and try_id in ev.handlers
             and (handler is None or handler.line <= ev.line) and ev.line <= call.line
             and (ev.attr or "").lower().endswith("sleep")]
    delay = waits[0].args[0] if waits and waits[0].args else None
    backoff, first = ("none", 0.0) if not waits else ("constant", float(delay[1])) \
        if delay and delay[0] == "lit" and type(delay[1]) in (int, float) else (None, None)
    return RetryPolicy(setting, Anchor(path, call.line, call.col, call.end_line, call.end_col), retries=limit,
                       on=None if on is None else tuple(dict.fromkeys(on)), backoff=backoff, delay=first,
                       source=source, calls=calls, caught_by=try_id)


def caught_names(handler) -> list[str]:
    """What a handler catches, as resolved, or as written where it did not resolve (`except on`)."""
    return [t or bare for t, bare in zip(handler.types, handler.unresolved or [None] * len(handler.types)) if t or bare]


def retrying_handlers(fn, try_id: int) -> list:
    """The handlers of a retry loop's `try` that go round again: not one that always leaves the
    loop (`except ValueError: raise` before `except Exception: sleep(5)`), unless all of them do;
    `continue` goes round."""
    handlers = [h for h in fn.handlers if h.try_id == try_id]
    return [h for h in handlers if not h.exits] or handlers
