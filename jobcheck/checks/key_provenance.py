"""JC101 key-from-clock, JC102 key-from-random: an idempotency key whose value comes from the
clock or from randomness at execution time, so each attempt makes a different key.

Where values come from is the summary's data flow: every key sink (a variable, keyword, dict
key or header named as a key; the key field of a recorded row; the key of a `cache.add` /
`SET NX` marker) lists the calls feeding it, through local variables. A call to a helper counts
when the helper returns such a value. Keys passed in as arguments come from the work and are
clean. Only code that runs as part of a job is checked: a uuid4 minted at enqueue time, outside
the job, and passed in is the correct idiom.
"""

from __future__ import annotations

from ..analysis.keys import is_key_name, is_record_key_field
from ..analysis.names import short
from ..analysis.program import bound_sources
from ..analysis.summary import FunctionSummary
from ..effects.catalog import ORM_RECORD_METHODS
from ..model import Confidence
from .context import CheckContext, event_anchor

CODES = ("JC101", "JC102")
_KIND_CODE = {"clock": "JC101", "random": "JC102"}
_MARKER_ATTRS = ("add", "setnx", "set", "hsetnx", "set_if_not_exists")


def run(ctx: CheckContext):
    project = ctx.project
    taint_cache: dict[str, list] = {}
    for qualname, fn in ctx.reached_functions():
        reported: set[int] = set()
        for sink_name, sources, confidence in _sinks(ctx, fn):
            slotted = any(_schedule_slot(ctx, fn, i) for i in sources)
            for index in sources:
                if index in reported:
                    continue
                origin = _origin(ctx, fn, index, taint_cache, (), [False])
                if origin is None:
                    continue
                kind, chain = origin
                if kind == "clock" and slotted:
                    continue  # the time, rounded to the schedule's instant, is the same on every attempt
                reported.add(index)
                code = _KIND_CODE[kind]
                what = "the clock" if kind == "clock" else "a fresh random value"
                via = f" (via {' -> '.join(short(c) for c in chain)})" if len(chain) > 1 else ""
                yield ctx.finding(
                    code,
                    event_anchor(project, qualname, index),
                    f"key `{sink_name}` is derived from {what}{via}: every attempt makes a new key, so a "
                    f"retry or a second delivery is not recognised as the same work; derive it from the work "
                    f"(ids, the scheduled period) or mint it once at enqueue time and pass it in",
                    confidence=confidence,
                    job=ctx.job_of(qualname),
                    chain=chain,
                    function=qualname,
                )


# A cron expression's instant at or around a time (croniter's `get_prev`/`get_next`, APScheduler's
# trigger): the schedule's slot, the same for every attempt in it.
_SLOTS = ("croniter.", "apscheduler.triggers.")


def _schedule_slot(ctx: CheckContext, fn: FunctionSummary, index: int, depth: int = 0) -> bool:
    """Does the event feeding the key compute a schedule's instant from the time it is given
    (`latest_fire_time(cron, at=now)` returning `croniter(cron, at).get_prev(datetime)`)? Then
    the clock in the key is the scheduled period's, not the attempt's."""
    ev = fn.events[index]
    name = ctx.project.event_name(ev) or "" if ev.kind == "call" else ""
    if name.startswith(_SLOTS):
        return True
    callee = ctx.project.function_for(name) if name and depth < 2 else None
    return callee is not None and any(_schedule_slot(ctx, callee, i, depth + 1) for i in callee.returns)


def _sinks(ctx: CheckContext, fn: FunctionSummary):
    """(what the key is called, the events feeding it, confidence) for each key in a function."""
    project = ctx.project
    for sink in fn.sinks:
        if is_key_name(sink.name):
            yield sink.name, sink.sources, Confidence.HIGH
    for ev in fn.events:
        if ev.kind != "call":
            continue
        records = None
        for kw, sources in ev.kwsrc.items():
            if is_key_name(kw):
                yield kw, sources, Confidence.HIGH
            elif is_record_key_field(kw):
                if records is None:
                    records = ev.attr in ORM_RECORD_METHODS and project.records_key(ev)
                if records:
                    yield kw, sources, Confidence.MEDIUM
        # A key a helper of the application's builds from what it is given (`_build_headers(msg_id,
        # ...)` returning `{"webhook-id": msg_id}`): the key is what this call passes.
        for helper in project.callees(ev):
            for sink in helper.sinks if helper is not fn else ():
                for param in sink.params if is_key_name(sink.name) else ():
                    given = _given(fn, helper, ev, param)
                    if given:
                        yield sink.name, tuple(given), Confidence.MEDIUM
        if ev.attr in _MARKER_ATTRS and ev.argsrc and ev.argsrc[0]:
            name = project.event_name(ev) or ""
            is_marker = name in project.catalog.markers or (ev.attr in ("set", "set_if_not_exists") and "nx" in ev.kwargs) or ev.attr in ("setnx", "hsetnx")
            if ev.attr == "add" and name.startswith(("django.core.cache", "cache")):
                is_marker = True
            if is_marker:
                yield "marker key", ev.argsrc[0], Confidence.MEDIUM


def _given(fn: FunctionSummary, helper: FunctionSummary, ev, param: str) -> list:
    """The calls feeding what a call passes for a helper's parameter; for a field of it
    (`data.idempotency_key`), what the object passed was built with for that field
    (`EventIn(idempotency_key=f"{msg.id}:{reviewer}", data={"url": token})`), and nothing when
    that is not seen."""
    base, _, field = param.partition(".")
    given = bound_sources(helper, ev, base)
    if not field:
        return given
    return [j for i in given if fn.events[i].kind == "call" and field in fn.events[i].kwsrc
            for j in fn.events[i].kwsrc[field]]


def _origin(ctx: CheckContext, fn: FunctionSummary, index: int, cache: dict, stack: tuple, cut: list):
    """("clock" | "random", chain) if the event's value comes from the clock or randomness.
    `cut[0]` is set when the walk stopped short (a cycle, or too deep): what it found then
    depends on where the walk started, so it is not remembered."""
    project = ctx.project
    ev = fn.events[index]
    if ev.kind != "call":
        return None
    name = project.event_name(ev)
    if not name:
        return None
    if name in project.catalog.clocks:
        return "clock", (name,)
    if name in project.catalog.random:
        return "random", (name,)
    callee = project.function_for(name)
    if callee is None:
        return None
    if callee.qualname in stack or len(stack) > 8:
        cut[0] = True
        return None
    returned = _returns(ctx, callee, cache, stack + (fn.qualname,), cut)
    if returned is None:
        return None
    kind, chain = returned
    return kind, (callee.qualname, *chain)


def _returns(ctx: CheckContext, fn: FunctionSummary, cache: dict, stack: tuple, cut: list):
    if fn.qualname in cache:
        return cache[fn.qualname]
    below = [False]
    result = None
    for index in fn.returns:
        result = _origin(ctx, fn, index, cache, stack, below)
        if result is not None:
            break
    if below[0]:
        cut[0] = True
    else:
        cache[fn.qualname] = result
    return result
