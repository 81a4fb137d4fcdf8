"""Decorators of an application's own that hand the decorated function to a framework's.

Large codebases declare jobs through their own decorator, read here by what its body does, with no
configuration:

    def app_task(name, **options):                 # @app_task(name=..., max_retries=5)
        def wrap(func):
            @wraps(func)
            def run(*args, **kwargs): ...
            return app.task(name=name, **options)(run)   # applies D(...) to a wrapper of func
        return wrap

    def shared(**options):                         # returns D(...) itself
        return shared_task(acks_late=True, **options)

    def background(func):                          # @background: applies D to its parameter
        return shared_task(func)

and a wrapper defined inside the factory and decorated with D (`@shared_task(**options)` on `run`).
`@app_task(...)` then reads as `@D(...)`: D's keywords written in the factory, plus the keywords
written at the use when the factory passes them on (`**options`). A wrapper inside a factory is the
generic part of every job the factory makes, not a job of its own when it says so with
`@functools.wraps(func)` (`is_transparent_wrapper`).
"""

from __future__ import annotations

from dataclasses import replace

from ..effects.catalog import ENQUEUE_METHODS
from .jobs import Anchor, RetryLimit, RetryPolicy, loop_policy, retrying_handlers
from .program import Program
from .summary import FunctionSummary
from .values import names

_DEPTH = 3


def forwarded_decorators(project: Program, name: str, claimed, depth: int = 0) -> list[tuple[str, dict, bool]]:
    """(D's name, D's keywords written in the factory, whether use-site keywords reach D) for each
    decorator D that `claimed(D)` accepts and that the application function NAME hands what it
    decorates to (a job decorator and a retry decorator may both apply)."""
    factory = project.function_for(name)
    if factory is None or depth > _DEPTH:
        return []
    found: dict[str, tuple[str, dict, bool]] = {}
    for fn in _with_nested(project, factory):
        for index, ev in enumerate(fn.events):
            if ev.kind != "call" or not ev.name:
                continue
            callee = project.canonical(ev.name) or ev.name
            applied = callee.endswith("()") and bool(ev.args)  # D(...)(wrapper)
            if applied:
                callee = callee[:-2]
            hands_over = index in fn.returns or applied or _passes_a_function(ev)
            if not claimed(callee):
                if hands_over and project.function_for(callee) is not None:
                    for inner in forwarded_decorators(project, callee, claimed, depth + 1):
                        found.setdefault(inner[0], inner)
                continue
            made = _last_call_of(project, fn, index, callee) if applied else ev
            if made is not None and hands_over:
                found.setdefault(callee, (callee, _literal_kwargs(made.kwargs), "**" in made.kwargs))
        if fn is not factory and is_generic_wrapper(project, fn):
            for value, *_ in fn.decorators:
                if value and value[0] in ("name", "call"):
                    callee = project.canonical(value[1]) or value[1]
                    if callee and claimed(callee):
                        kwargs = value[3] if value[0] == "call" else {}
                        found.setdefault(callee, (callee, _literal_kwargs(kwargs), "**" in kwargs))
                    elif callee and project.function_for(callee) is not None:
                        # `@periodic(spacing=spacing)` on the wrapper, itself a factory of the
                        # application's own that hands what it decorates to D.
                        for inner in forwarded_decorators(project, callee, claimed, depth + 1):
                            found.setdefault(inner[0], inner)
    return list(found.values())


def is_generic_wrapper(project: Program, fn: FunctionSummary) -> bool:
    """A function nested in another that calls a parameter of an enclosing function: the wrapper a
    decorator factory builds around whatever it decorates (`run` calling `func`)."""
    if ".<locals>." not in fn.qualname:
        return False
    outer_params = _enclosing_params(project, fn)
    return any(ev.kind == "call" and ev.name is None and ev.attr in outer_params for ev in fn.events)


def is_transparent_wrapper(fn: FunctionSummary) -> bool:
    """`@wraps(func)` on a nested function: it stands for whatever the enclosing decorator wraps."""
    return ".<locals>." in fn.qualname and any(
        value and value[0] == "call" and value[1] in ("functools.wraps", "functools.update_wrapper")
        for value, *_ in fn.decorators)


def _with_nested(project: Program, factory: FunctionSummary) -> list[FunctionSummary]:
    module = project.function_module.get(factory.qualname)
    prefix = factory.qualname + ".<locals>."
    nested = [f for q, f in module.functions.items() if q.startswith(prefix)] if module is not None else []
    return [factory, *nested]


def _passes_a_function(ev) -> bool:
    """`D(func)`: a parameter or a function handed to the decorator as its first argument."""
    return bool(ev.args) and ev.args[0] and ev.args[0][0] in ("param", "name")


def _last_call_of(project: Program, fn: FunctionSummary, before: int, callee: str):
    for ev in reversed(fn.events[:before]):
        if ev.kind == "call" and ev.name and (project.canonical(ev.name) or ev.name) == callee:
            return ev
    return None


def _literal_kwargs(kwargs: dict) -> dict:
    """The keywords the factory fixes: literals and names, not its own parameters or splats."""
    return {k: v for k, v in kwargs.items() if k != "**" and v and v[0] not in ("param", "closure", "other")}


# ---------------------------------------------------------------- retry wrappers of the application's own

WAITS = ("time.sleep", "asyncio.sleep", "trio.sleep", "anyio.sleep", "gevent.sleep", "eventlet.sleep")

def retry_by_wrapper(project: Program, module, value: list, name: str, where: Anchor) -> RetryPolicy | None:
    """`@retry_on(on=(IOError,))`, a decorator of the application's own whose wrapper calls the
    decorated function in a `try` and, in the handler, asks for a retry (`current_task.retry()`,
    `self.retry()`), enqueues the job again, or calls the wrapper itself again (`return
    wrapper(*args, count=count - 1)`): the function is retried on what that handler catches.
    `except on:` with `on` a parameter of the factory reads the argument written at the use. So is
    a wrapper that calls it in a retry loop (`for delay in delays: try: return func(*args) except
    exception: time.sleep(delay)`), as that loop says."""
    factory = project.function_for(name)
    if factory is None:
        return None
    for fn in _with_nested(project, factory):
        params = _enclosing_params(project, fn)
        for ev in fn.events:
            if not (ev.kind == "call" and ev.name is None and ev.attr in params and ev.tries):
                continue
            # `for delay in delays: try: return function(*args) except exception: sleep(delay)`:
            # a retry loop of the wrapper's around the decorated function.
            loop = next((loop for loop in fn.retry_loops if loop[0] in ev.loops and loop[1] in ev.tries), None)
            if loop is not None:
                policy = loop_policy(fn, loop, where.path)
                handlers = retrying_handlers(fn, loop[1])
                on: list | None = [] if handlers else None
                for handler in handlers:  # `except on:` read from the use
                    caught = _caught(project, factory, value, handler)
                    on = None if caught is None or on is None else [*on, *caught]
                return replace(policy, setting=f"@{name.rpartition('.')[2]} retries {policy.setting.replace('a retry loop', 'in a loop', 1)}",
                               anchor=where, on=None if on is None or policy.on is None else tuple(dict.fromkeys(on)),
                               source="wrapper", loop=None)
            for handler in fn.handlers:
                if handler.try_id not in ev.tries:
                    continue
                again = _calls_itself_again(fn, handler)
                how = next((c for c in handler.calls if _asks_for_retry(c)), None)
                if how is None and again is None:
                    continue
                on = _caught(project, factory, value, handler)
                if again is not None:
                    # a call in a branch (`if count > 0:`), one handing on a count of its own
                    # (`_left=_left - 1`) or a handler that re-raises stops; a bare call again, made
                    # whatever happened, never does
                    counted = bool(again.branch) or handler.reraises or any(k != "**" for k in again.kwargs)
                    waits = _waits_before(project, fn, again)
                    limit = RetryLimit.unlimited()
                    if counted:
                        limit = _count_given(project, factory, value) or RetryLimit.unknown_count("a count it keeps")
                    return RetryPolicy(
                        setting=f"@{name.rpartition('.')[2]} retries by calling itself again",
                        anchor=where,  # the decorator where it is applied, as tenacity's `@retry` is
                        retries=limit,
                        on=on, backoff=None if waits else "none", delay=None if waits else 0.0, source="wrapper",
                    )
                return RetryPolicy(
                    setting=f"@{name.rpartition('.')[2]} retries through {how.rpartition('.')[2]}()",
                    anchor=where,  # the decorator where it is applied, as tenacity's `@retry` is
                    # the framework's retry() keeps count and a handler that re-raises stops; enqueueing again never stops
                    retries=RetryLimit.unknown_count(f"{how.rpartition('.')[2]}()") if how.endswith(".retry") or handler.reraises
                    else RetryLimit.unlimited(),
                    on=on, backoff=None, source="wrapper",
                )
    return None


def _calls_itself_again(fn: FunctionSummary, handler):
    """The call in `handler` of the wrapper itself that hands on what it was given
    (`wrapper(*args, count=count - 1, **kwargs)`, `wrapper(url, session)`): the same call again.
    A recursive function that calls itself on something else (a tree walker's `walk(child)`) is
    no retry."""
    for ev in fn.events:
        if ev.kind != "call" or ev.name != fn.qualname or handler.try_id not in ev.handlers:
            continue
        splat = ev.kwargs.get("**")
        passed = [a for a in ev.args if a and a[0] == "param"]
        if (splat and splat[0] == "param") or (ev.args and len(passed) == len(ev.args)
                                               and all(a[2] == i for i, a in enumerate(passed))):
            return ev
    return None


# A factory parameter that holds the count of a counting retry decorator, and whether it counts
# every try (`attempts=3`: two retries) or only the retries (`retries=3`).
_COUNT_PARAMS = {"retries": False, "max_retries": False, "times": False, "attempts": True, "max_attempts": True,
                 "tries": True, "max_tries": True}


def _count_given(project: Program, factory: FunctionSummary, value: list) -> RetryLimit | None:
    """The retries a counting decorator is given where it is applied (`@retrier(retries=2)`), or
    its factory's default (`def retrier(_func=None, *, retries=API_RETRY_COUNT)`)."""
    for param, every_try in _COUNT_PARAMS.items():
        if param not in factory.params:
            continue
        given = value[3].get(param) if value and value[0] == "call" else None
        index = factory.params.index(param)
        if given is None and value and value[0] == "call" and index < len(value[2]):
            given = value[2][index]
        if given is None:
            given = factory.defaults.get(param)
        count = project.deref(given) if given else None
        if count and count[0] == "lit" and isinstance(count[1], int) and not isinstance(count[1], bool):
            return RetryLimit.known(max(0, count[1] - 1) if every_try else count[1])
    return None


def _waits_before(project: Program, fn: FunctionSummary, again) -> bool:
    """Does every call again wait first: a sleep before it in the handler or before the `try`,
    on the path to the call (not in a branch of its own, as `if isinstance(exc, RateLimited):
    sleep(backoff)` is)?"""
    for ev in fn.events:
        if ev.kind != "call" or ev is again or not set(ev.handlers) <= set(again.handlers):
            continue  # a sleep in the handler, or before the try: not in another handler
        name = project.canonical(ev.name) or ev.name or ""
        if name in WAITS and again.branch[: len(ev.branch)] == ev.branch and (ev.line, ev.col) < (again.line, again.col):
            return True
    return False


def _asks_for_retry(call: str) -> bool:
    tail = call.rpartition(".")[2]
    return tail == "retry" or tail in ENQUEUE_METHODS


def _enclosing_params(project: Program, fn: FunctionSummary) -> set[str]:
    out: set[str] = set()
    qualname = fn.qualname
    while ".<locals>." in qualname:
        qualname = qualname.rsplit(".<locals>.", 1)[0]
        outer = project.functions.get(qualname)
        if outer is not None:
            out.update(outer.params)
    return out


def _caught(project: Program, factory: FunctionSummary, value: list, handler) -> tuple[str, ...] | None:
    """What the handler catches, with a factory parameter read from the use (None: anything)."""
    if not handler.types:
        return None
    out: list[str] = []
    for caught, bare in zip(handler.types, handler.unresolved or [None] * len(handler.types)):
        if caught:
            out.append(project.canonical(caught) or caught)
            continue
        given = None
        if bare in factory.params and value[0] == "call":
            given = value[3].get(bare)
            index = factory.params.index(bare)
            if given is None and index < len(value[2]):
                given = value[2][index]
        found = names(project.deref(given)) if given else None
        if not found:
            return None  # the factory's default or something computed: read as anything
        out.extend(found)
    return tuple(out)
