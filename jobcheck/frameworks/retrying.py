"""Retry decorators that apply to any function: tenacity `@retry`, backoff `@on_exception` /
`@on_predicate`, stamina `@retry`, and the older `retrying` package's `@retry`. They make a
function retried without making it a job.

Defaults: tenacity retries forever on any exception with no wait unless `stop`/`wait` say
otherwise; backoff retries forever unless `max_tries`/`max_time`; stamina stops after 10
attempts or 45 s; `retrying` retries forever on any exception with no wait unless
`stop_max_attempt_number`/`stop_max_delay` and a `wait_*` keyword (milliseconds) say otherwise,
and never retries a coroutine function (the others await it).

The same policies applied at a call retry the function handed over: `Retrying(stop=...)(send,
order)` (also a `Retrying(...)` held in a local first, and `AsyncRetrying`), `tenacity.retry(
stop=...)(send)(order)`, `backoff.on_exception(...)(send)(order)`. tenacity's retrying block (`for
attempt in Retrying(...): with attempt:`) is a retry loop of the function it is written in
(`analysis.retry_loops`).

A retry helper of another library, called with a function of the application and a count
(`backoff(self._register, retry_on=(Exception,), max_retries=5)`, `proxy_with_retry("listen",
lambda: connect(), max_retries=10)`), retries that function that many times, on what its
`retry_on=` / `retryable_exceptions=` names (any failure where it names nothing); its wait is not
known. The application's own helpers are read by their bodies instead (`retry_loops`).
"""

from __future__ import annotations

from dataclasses import replace

from ..analysis.jobs import Anchor, Registration, RetryLimit, RetryPolicy
from ..analysis.decorators import decorated_functions
from ..analysis.names import target
from ..analysis.words import name_words
from ..analysis.project import Project
from ..analysis.retry_loops import tenacity_stop, tenacity_wait
from ..analysis.values import call_args, call_kwargs, call_name, lit, names, render
from .base import describe, policy, retry_limit


def _tenacity(kwargs: dict, anchor, bare: str = "@retry") -> RetryPolicy:
    stop = kwargs.get("stop")
    limit = RetryLimit.unlimited()
    if stop is not None:
        kind = tenacity_stop(call_name(stop) or render(stop))
        if kind == "attempts":
            limit = retry_limit((call_args(stop) or [None])[0], RetryLimit.unknown_count(render(stop)), unlimited=(), attempts=True)
        elif kind == "bounded":
            limit = RetryLimit.unknown_count(render(stop))  # bounded some other way (time, a combination)
    elif "**" in kwargs:
        limit = RetryLimit.unknown_count(f"**{render(kwargs['**'])}")  # the splat may hold a `stop`
    on = None
    retry = kwargs.get("retry")
    if retry is not None and (call_name(retry) or "").endswith("retry_if_exception_type"):
        args = call_args(retry)
        on = names(args[0]) if args else None
    on_result = retry is not None and (call_name(retry) or "").endswith(("retry_if_result", "retry_if_not_result"))
    wait = kwargs.get("wait")
    first = lit((call_args(wait) or [None])[0], None) if wait is not None else None
    backoff, delay = tenacity_wait("" if wait is None else call_name(wait) or render(wait),
                                   first if isinstance(first, (int, float)) and not isinstance(first, bool) else None)
    # With `retry_if_result` it goes round on what the function returns (each round runs the whole
    # function again), and an exception is raised at once.
    return policy(describe(kwargs, ("stop", "retry", "wait")) or bare, anchor, retries=limit, on=on, backoff=backoff,
                  delay=delay, on_result=on_result)


def _backoff(name: str, args: list, kwargs: dict, anchor) -> RetryPolicy:
    on = names(args[1]) if name.endswith("on_exception") and len(args) > 1 else None
    if "exception" in kwargs:
        on = names(kwargs["exception"])
    by_time = RetryLimit.unknown_count(f"max_time={render(kwargs['max_time'])}") if "max_time" in kwargs else RetryLimit.unlimited()
    limit = retry_limit(kwargs.get("max_tries"), by_time, unlimited=(), attempts=True)  # None: the default
    wait = render(args[0]) if args else ""
    backoff = "exponential" if "expo" in wait or "fibo" in wait else "constant"
    return policy(f"{name.rpartition('.')[2]}({', '.join(render(a) for a in args)}{', ' if args and kwargs else ''}{describe(kwargs, tuple(kwargs))})", anchor, retries=limit, on=on, backoff=backoff)


def _stamina(kwargs: dict, anchor) -> RetryPolicy:
    limit = retry_limit(kwargs.get("attempts"), RetryLimit.known(9), unlimited=(None, 0), attempts=True)
    return policy(describe(kwargs, ("on", "attempts", "timeout")) or "stamina.retry()", anchor,
                  retries=limit, on=names(kwargs.get("on")), backoff="exponential")


def _retrying(kwargs: dict, anchor) -> RetryPolicy:
    """`retrying.retry(stop_max_attempt_number=5, wait_fixed=2000)`: times in milliseconds."""
    bounded_by = next((k for k in ("stop_max_delay", "stop_func") if k in kwargs), None)
    limit = retry_limit(kwargs.get("stop_max_attempt_number"),
                        RetryLimit.unknown_count(f"{bounded_by}={render(kwargs[bounded_by])}") if bounded_by else RetryLimit.unlimited(),
                        unlimited=(), attempts=True)
    waits = {k: v for k, v in kwargs.items() if k.startswith("wait_")}
    backoff, delay = "none", 0.0
    if any(k.startswith("wait_exponential") for k in waits):
        backoff, delay = "exponential", None
    elif any(k.startswith("wait_incrementing") for k in waits):
        backoff, delay = "linear", None
    elif waits:
        first = waits.get("wait_fixed", waits.get("wait_random_min"))
        millis = first[1] if first and first[0] == "lit" and isinstance(first[1], (int, float)) else None
        backoff, delay = ("constant", millis / 1000) if millis is not None else (None, None)  # unreadable: unknown
    if "wait_func" in kwargs:
        backoff, delay = None, None
    written = describe(kwargs, tuple(kwargs))
    return policy(f"@retry({written})" if written else "@retry (retrying: forever, no wait)", anchor,
                  retries=limit, on=None, backoff=backoff, delay=delay)


RETRYING_CALLS = ("tenacity.Retrying", "tenacity.AsyncRetrying", "tenacity.asyncio.AsyncRetrying")
RETRY_DECORATORS = ("tenacity.retry", "tenacity.asyncio.retry", "backoff.on_exception", "backoff.on_predicate",
                    "stamina.retry", "retrying.retry")


class RetryDecorators:
    name = "retry"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return name in RETRY_DECORATORS

    def find_jobs(self, project: Project) -> list:
        return []

    def find_registrations(self, project: Project) -> list[Registration]:
        return []

    def find_retry_wrappers(self, project: Project) -> dict[str, RetryPolicy]:
        out: dict[str, RetryPolicy] = {}
        for d in decorated_functions(project, self.name):
            kwargs = call_kwargs(d.value) if d.is_call else {}
            args = call_args(d.value) if d.is_call else []
            if d.name in ("tenacity.retry", "tenacity.asyncio.retry"):
                out[d.function.qualname] = _tenacity(kwargs, d.anchor)
            elif d.name in ("backoff.on_exception", "backoff.on_predicate"):
                out[d.function.qualname] = _backoff(d.name, args, kwargs, d.anchor)
            elif d.name == "stamina.retry":
                out[d.function.qualname] = _stamina(kwargs, d.anchor)
            elif d.name == "retrying.retry":
                found = _retrying(kwargs, d.anchor)
                if d.function.is_async:
                    # `retrying` knows no coroutines: it calls the function once, which returns a
                    # coroutine without raising, and never runs it again.
                    found = replace(found, setting=f"{found.setting}, on a coroutine function: never runs again",
                                    retries=RetryLimit.known(0))
                out[d.function.qualname] = found
        for qualname, found in _applied_at_calls(project).items():
            out.setdefault(qualname, found)
        return out


def _policy(name: str, args: list, kwargs: dict, anchor) -> RetryPolicy:
    if name.startswith("tenacity."):
        return _tenacity(kwargs, anchor, f"{name.rpartition('.')[2]}()" if name in RETRYING_CALLS else "@retry")
    if name.startswith("backoff."):
        return _backoff(name, args, kwargs, anchor)
    return _stamina(kwargs, anchor) if name == "stamina.retry" else _retrying(kwargs, anchor)


def _made_by(project: Project, fn, i: int, maker: str):
    """The call that made the retrier event `i` calls: the one written inside it
    (`Retrying(stop=...)(send, x)`), or the one the local it calls was made by (`retryer =
    Retrying(...)` ... `retryer(send, x)`); None where that is not one call."""
    ev = fn.events[i]
    made = [j for j in range(i) if fn.events[j].kind == "call" and fn.events[j].name
            and (project.canonical(fn.events[j].name) or fn.events[j].name) == maker]
    if i and i - 1 in made and (fn.events[i - 1].line, fn.events[i - 1].col) >= (ev.line, ev.col):
        return fn.events[i - 1]
    held = [j for j in made if j in ev.receiver_src]  # the local called was made by this one
    return fn.events[held[0]] if len(held) == 1 else None


def _applied_at_calls(project: Project) -> dict[str, RetryPolicy]:
    """Functions a retry policy is applied to at a call (see the module's doc): the function
    handed over, under the policy the call that made the retrier writes (`_made_by`)."""
    out: dict[str, RetryPolicy] = {}
    for mod in project.modules.values():
        if not project.the_applications(mod):
            continue
        for fn in mod.functions.values():
            for i, ev in enumerate(fn.events):
                if ev.kind != "call" or not ev.name or not ev.args:
                    continue
                name = project.canonical(ev.name) or ev.name
                if name.endswith("()") and name[:-2] in (*RETRYING_CALLS, *RETRY_DECORATORS):
                    maker = name[:-2]
                    if maker in RETRY_DECORATORS and len(ev.args) != 1:
                        continue  # `retry(...)(f)` takes the function alone
                    made = _made_by(project, fn, i, maker)
                    if made is None:
                        continue
                    args, kwargs = list(made.args), dict(made.kwargs)
                elif name in ("tenacity.retry", "retrying.retry") and len(ev.args) == 1 and not ev.kwargs:
                    maker, args, kwargs = name, [], {}  # `tenacity.retry(send)`: the bare decorator
                else:
                    found = _library_retry(project, mod, fn, ev, name)
                    if found is not None:
                        out.setdefault(*found)
                    continue
                given = target(project, mod, ev.args[0])
                if given and given in project.functions and given != fn.qualname:
                    anchor = Anchor(mod.path, ev.line, ev.col, ev.end_line, ev.end_col)
                    out.setdefault(given, _policy(maker, args, kwargs, anchor))
    return out


# A library's retry helper, called with the function it runs again and how many times
# (`backoff(self._register, retry_on=(Exception,), max_retries=5)`, mautrix's
# `proxy_with_retry("listen", lambda: connect(), max_retries=10, retryable_exceptions=(...))`):
# named for retrying, given a count; the count of attempts where the keyword says so.
_RETRY_WORDS = frozenset({"retry", "retries", "retrying", "backoff"})
_COUNTS = {"max_retries": False, "retries": False, "num_retries": False, "retry_limit": False,
           "max_tries": True, "tries": True, "max_attempts": True, "attempts": True}
_RETRIED_ON = ("retry_on", "retryable_exceptions", "retry_exceptions", "exceptions")


def _library_retry(project: Project, mod, fn, ev, name: str) -> tuple[str, RetryPolicy] | None:
    """(function, policy) where `ev` calls a retry helper of a library's (not the application's
    own, which its body tells: `retry_loops`) with a function of the application and a count."""
    count = next((k for k in _COUNTS if k in ev.kwargs), None)
    if count is None or not ev.attr or not _RETRY_WORDS.intersection(name_words(ev.attr)) \
            or project.function_for(name) is not None or name in (*RETRYING_CALLS, *RETRY_DECORATORS):
        return None
    given = next((g for g in (target(project, mod, a) for a in ev.args) if g in project.functions and g != fn.qualname),
                 None)
    if given is None:
        return None
    on = next((names(ev.kwargs[k]) for k in _RETRIED_ON if k in ev.kwargs), None)
    limit = retry_limit(ev.kwargs[count], RetryLimit.unknown_count(render(ev.kwargs[count])), attempts=_COUNTS[count])
    anchor = Anchor(mod.path, ev.line, ev.col, ev.end_line, ev.end_col)
    return given, policy(f"{ev.attr}({describe(ev.kwargs, (count, *_RETRIED_ON))})", anchor, retries=limit, on=on)


FRAMEWORK = RetryDecorators()
