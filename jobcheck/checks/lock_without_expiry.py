"""JC301 lock-without-expiry: code a job runs takes a lock or lease that nothing but its holder
releases. A run that dies holding it — a killed worker, a deploy, an out-of-memory kill — never
runs its `finally`, and every later run finds the lock taken: the job stops, silently.

Two shapes (`effects.catalog`): a lock API called with no timeout (`Redis.lock(name)`,
python-redis-lock's `Lock(conn, name)`, django-redis's `cache.lock(name)`), and a set-if-absent
write with no expiry (`set(..., nx=True)` with no `ex`/`px`, `setnx`, `cache.add(...,
timeout=None)`) that the same client deletes later in the function: taken, the work, released.
A set-if-absent write that is never deleted is a marker that may be meant to last (a key saying
the work was done), and is not reported.
"""

from __future__ import annotations

from ..analysis.names import short
from ..analysis.summary import Event, FunctionSummary
from ..effects.catalog import (
    CACHE_ADD_CALLS,
    LOCK_CALLS,
    LOCK_RELEASES,
    SET_IF_ABSENT_EXPIRY,
)
from ..effects.classify import PatternSet
from ..model import Confidence
from .context import CheckContext, ProjectView, event_anchor

CODES = ("JC301",)
_LOCKS = [(PatternSet([pattern]), keyword, position) for pattern, keyword, position in LOCK_CALLS]
_CACHE_ADD = PatternSet(CACHE_ADD_CALLS)
_REDIS = ("redis.", "valkey.", "aioredis.", "django_redis.", "django.core.cache.")
_DIES = ("if the run dies {when} (a killed worker, a deploy, an out-of-memory kill), nothing releases it and "
         "no later run can take it")


def run(ctx: CheckContext):
    project = ctx.project
    for qualname, fn in ctx.reached_functions():
        for i, ev in enumerate(fn.events):
            if ev.kind != "call" or "**" in ev.kwargs:
                continue  # (keywords passed on whole may hold the expiry)
            name = project.event_name(ev)
            found = _lock_call(name, ev) or _set_if_absent(project, fn, i, name, ev)
            if found is None:
                continue
            message, confidence = found
            yield ctx.finding("JC301", event_anchor(project, qualname, i), message, confidence=confidence,
                              job=ctx.job_of(qualname), function=qualname)


def _lock_call(name: str | None, ev: Event) -> tuple[str, Confidence] | None:
    """A lock API called with no timeout."""
    for patterns, keyword, position in _LOCKS:
        if name in patterns:
            if _given(ev, keyword, position):
                return None
            return (f"`{short(name)}` takes a lock with no expiry (no `{keyword}=`): {_DIES.format(when='holding it')}. "
                    f"Pass `{keyword}=` longer than the work takes, and fence the writes it guards with a token",
                    Confidence.HIGH)
    return None


def _set_if_absent(project: ProjectView, fn: FunctionSummary, index: int, name: str | None,
                   ev: Event) -> tuple[str, Confidence] | None:
    """A set-if-absent write with no expiry that the same client deletes later: a lock."""
    if not name:
        return None
    if ev.attr == "set" and _literal(ev.kwargs.get("nx")) is True:
        if _given(ev, "ex", 2) or any(_given(ev, k, None) for k in SET_IF_ABSENT_EXPIRY):
            return None
        how = "`nx=True` with no `ex=`/`px=`"
    elif ev.attr == "setnx":
        how = "`setnx`, which sets no expiry"
        if _later(project, fn, index, name, ("expire", "pexpire", "expireat", "pexpireat")) is not None:
            return None
    elif name in _CACHE_ADD:
        if "timeout" not in ev.kwargs and len(ev.args) < 3 or _given(ev, "timeout", 2):
            return None  # the cache's default timeout, or one given
        how = "`timeout=None`"
    else:
        return None
    release = _later(project, fn, index, name, LOCK_RELEASES)
    if release is None:
        return None
    released, line = release
    confidence = Confidence.HIGH if name.startswith(_REDIS) or "Redis()." in name else Confidence.MEDIUM
    return (f"`{short(name)}` takes a lock with no expiry ({how}), released by `{short(released)}` at "
            f"line {line}: {_DIES.format(when='in between')}. Set the expiry in the same call (`ex=`/`px=`, "
            f"`timeout=`), longer than the work takes, and fence the writes it guards with a token", confidence)


def _later(project: ProjectView, fn: FunctionSummary, index: int, name: str, attrs: tuple[str, ...]):
    """(name, line) of a later call through the same client (`name`'s receiver) of one of `attrs`,
    on the same key as far as can be told (two different literal keys are not the same)."""
    receiver = name.rpartition(".")[0]
    key = _literal(fn.events[index].args[0] if fn.events[index].args else None, None)
    for ev in fn.events[index + 1:]:
        if ev.kind == "call" and ev.attr in attrs:
            other = project.event_name(ev) or ""
            other_key = _literal(ev.args[0] if ev.args else None, None)
            if other.rpartition(".")[0] == receiver and (key is None or other_key is None or key == other_key):
                return other, ev.line
    return None


def _given(ev: Event, keyword: str, position: int | None) -> bool:
    """Is the argument given (by keyword, or at `position`), and not as None?"""
    if keyword in ev.kwargs:
        return _literal(ev.kwargs[keyword], "") is not None
    return position is not None and len(ev.args) > position and _literal(ev.args[position], "") is not None


def _literal(value: list | None, otherwise=None):
    """A literal Value's value; `otherwise` for anything else (a name, a call: some value)."""
    return value[1] if value and value[0] == "lit" else otherwise
