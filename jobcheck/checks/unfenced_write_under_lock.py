"""JC302 unfenced-write-under-lock: a job takes a lock that expires, does work whose length it
does not bound, then writes with neither a fencing token nor a check that it still holds the lock.

The lease may run out while the holder works (the work outgrew the expiry, a pause, a slow
network): a second run takes the lock, and both write. What counts (`effects.leases`):

- the lock: one of `locks.locks_in` with an expiry (given, or the library's default);
- long work, between taking it and the write: a loop that calls anything (a write inside the loop
  follows the earlier iterations' work), a network call, a subprocess, a sleep, or a call of the
  project's that makes one of these (three calls deep). Straight-line work is short;
- the write: a database write the ORM or SQL text makes plain, an object store upload, or an
  unguarded external effect (email, SMS, HTTP, payment, publish), itself or through a helper;
- what keeps it quiet: an ownership check or renewal after the long work (`lock.owned()`,
  `extend`, `reacquire`, `renew`; the key's `get`/`expire` for a set-if-absent lock),
  jobcheck.runtime's `fence`/`fenced_transaction`, a write filtered on a token or version column,
  and a write that is its own key (an upsert, a key recorded with it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..analysis.keys import is_key_name
from ..analysis.names import short
from ..analysis.summary import Event, FunctionSummary
from ..analysis.values import lit
from ..effects.classify import PatternSet
from ..effects.leases import (
    FENCE_COLUMNS,
    FENCED_WRITES,
    KEY_OWNERSHIP_CHECKS,
    LOCK_OWNERSHIP_CHECKS,
    LONG_CALLS,
    OBJECT_STORE_WRITES,
    UPSERT_METHODS,
    UPSERT_SQL,
)
from ..model import Confidence
from .context import CheckContext, ProjectView, event_anchor
from .locks import Lock, locks_in, on_key
from .reach import Reach

CODES = ("JC302",)
_LONG = re.compile("|".join(re.escape(p).replace(r"\*", r"[^()]*") for p in LONG_CALLS))
_FENCES = PatternSet(FENCED_WRITES)
_OBJECT_STORE = PatternSet(OBJECT_STORE_WRITES)
_WRITE_KINDS = ("email", "sms", "http", "payment", "publish")  # external effects; enqueueing is not a write
_UPSERT_SQL = re.compile(UPSERT_SQL, re.I | re.M)
_FENCE_SQL = re.compile(r"\bwhere\b.*\b\w*(" + "|".join(FENCE_COLUMNS) + r")\w*\s*(<|<=|=|>|>=)", re.I | re.S)
_FENCE_FIELD = re.compile(r"(^|_)(" + "|".join(FENCE_COLUMNS) + r")(_|$)", re.I)


def run(ctx: CheckContext):
    project = ctx.project
    reach = _Walks(Reach(project, lambda fn, i, ev: _long_own(project, fn, ev)),
                   Reach(project, lambda fn, i, ev: _own_write(project, fn, ev)))
    for qualname, fn in ctx.reached_functions():
        for lock in locks_in(project, fn):
            if lock.expiry is None:
                continue  # JC301's business
            found = _unfenced_write(project, reach, qualname, fn, lock)
            if found is None:
                continue
            index, write, chain, long_work, confidence = found
            yield ctx.finding(
                "JC302", event_anchor(project, qualname, index),
                f"`{write}` writes under `{short(lock.name)}` ({lock.expiry}, line {fn.events[lock.index].line}) "
                f"after {long_work}, with no fencing token and no check that the lock is still held: if the work "
                f"outlasts the lease, a second run takes the lock and both write. Check ownership or extend the "
                f"lease right before the write (`lock.owned()`, `lock.extend()`), or fence the write with a token "
                f"the store checks (`UPDATE ... WHERE fence_token < :token`, jobcheck.runtime `fenced_transaction`)",
                confidence=confidence, job=ctx.job_of(qualname), chain=chain, function=qualname)


def _unfenced_write(project: ProjectView, reach: _Walks, qualname: str, fn: FunctionSummary, lock: Lock):
    """(index, write, chain, long work, confidence) of the first write under the lock that follows
    long work with no check or fence in between."""
    outer = set(fn.events[lock.index].loops)
    effects = {ce.event_index: ce.path for ce in project.call_effects(qualname) if ce.path.kind in _WRITE_KINDS}
    long_call: tuple[int, str] | None = None  # (index, what) of the latest long call
    loop_first: dict[int, int] = {}  # loop id -> line of its first call
    loop_last: dict[int, int] = {}  # loop id -> index of its latest call
    checks: list[int] = []  # ownership checks and fences, by index
    for j, ev in enumerate(fn.events):
        if ev.kind != "call" or not lock.guards(fn, j):
            continue
        loops = [loop for loop in ev.loops if loop not in outer]
        for loop in loops:
            loop_first.setdefault(loop, ev.line)
            loop_last[loop] = j
        if _checks_ownership(project, fn, lock, ev):
            checks.append(j)
            continue
        write = _write(project, reach, fn, j, ev, effects)
        if write is not None and not _fenced(project, fn, ev):
            done = [(last, f"the loop at line {loop_first[loop]}") for loop, last in loop_last.items() if loop not in loops]
            latest = max(filter(None, [long_call, *done]), key=lambda w: w[0], default=None)
            what = _long_before(fn, loops, latest, checks, loop_first)
            if what is not None:
                return (j, *write[:2], what, write[2])
        found = _long(project, reach, ev)
        if found is not None:
            long_call = (j, f"`{found}` at line {ev.line}")
    return None


def _long_before(fn: FunctionSummary, loops: list[int], latest: tuple[int, str] | None, checks: list[int],
                 loop_first: dict[int, int]) -> str | None:
    """What long work comes before a write in `loops` with no check after it, if any: the earlier
    iterations of a loop it is in, or the latest long call or loop before it."""
    for loop in loops:
        if not any(loop in fn.events[c].loops for c in checks):
            return f"the earlier iterations of the loop at line {loop_first[loop]}"
    if latest is not None and not any(c > latest[0] for c in checks):
        return latest[1]
    return None


def _checks_ownership(project: ProjectView, fn: FunctionSummary, lock: Lock, ev: Event) -> bool:
    """An ownership check, a renewal or a fence."""
    name = project.event_name(ev) or ev.name or ""
    if name in _FENCES:
        return True
    if lock.is_key:
        return ev.attr in KEY_OWNERSHIP_CHECKS and on_key(project, ev, lock.name, lock.key)
    receiver = name.rpartition(".")[0]
    return ev.attr in LOCK_OWNERSHIP_CHECKS and (
        receiver.endswith(f"{fn.events[lock.index].name}()") or re.search(r"(?i)lock|lease", receiver) is not None)


def _write(project: ProjectView, reach: _Walks, fn: FunctionSummary, index: int, ev: Event, effects: dict):
    """(what, chain, confidence) if this call writes, itself or through the project's helpers."""
    own = _own_write(project, fn, ev)
    if own is not None:
        return own
    path = effects.get(index)
    if path is not None:
        return " -> ".join(short(c) for c in path.chain), path.chain, path.confidence
    direct = _direct_effect(project, ev)
    if direct is not None:
        return direct
    inner = next((hit for callee in project.callees(ev) if (hit := reach.writes.below(callee.qualname)) is not None), None)
    if inner is None:
        return None
    (_, written, confidence), callers = inner
    chain = (*callers, *written)
    return " -> ".join(short(c) for c in chain), chain, confidence


def _direct_effect(project: ProjectView, ev: Event):
    """(what, chain, confidence) of an external effect this call makes with no key argument. The
    lock itself may read as the effect's guard (a set-if-absent marker): it is not one here."""
    name = project.event_name(ev)
    method = lit(ev.args[0]) if ev.args else lit(ev.kwargs.get("method"))
    hit = project.catalog.effect(name, method)
    if hit is None or hit.kind not in _WRITE_KINDS or any(is_key_name(k) for k in ev.kwargs):
        return None
    return short(hit.name), (hit.name,), hit.confidence


def _own_write(project: ProjectView, fn: FunctionSummary, ev: Event):
    """(what, chain, confidence) if this call itself writes to a database or an object store,
    and is not its own key."""
    name = project.event_name(ev)
    if name in _OBJECT_STORE:
        return short(name), (name,), Confidence.MEDIUM
    confidence = project.writes_db(ev, fn)
    if confidence is None or confidence is Confidence.LOW or _keyed(project, fn, ev):
        return None
    what = name or ev.attr or "?"
    return short(what), (what,), confidence


def _keyed(project: ProjectView, fn: FunctionSummary, ev: Event) -> bool:
    """A write that is its own key or is refused from a stale writer: an upsert, a key recorded
    with it, a filter on a token or version column, SQL that does one of these."""
    if ev.attr in UPSERT_METHODS or project.records_key(ev, fn):
        return True
    if lit(ev.kwargs.get("update_conflicts")) or lit(ev.kwargs.get("ignore_conflicts")):
        return True
    sql = lit(ev.args[0]) if ev.args else None
    if isinstance(sql, str) and (_UPSERT_SQL.search(sql) or _FENCE_SQL.search(sql)):
        return True
    for j in _feeding(fn, ev):
        source = fn.events[j]
        if source.attr in UPSERT_METHODS or any(_FENCE_FIELD.search(k) for k in source.kwargs):
            return True
    return False


def _feeding(fn: FunctionSummary, ev: Event, depth: int = 0) -> set[int]:
    """The events that build this call's receiver and arguments (`filter()` before `update()`)."""
    found = set(ev.receiver_src) | {j for src in ev.argsrc for j in src}
    if depth < 3:
        for j in list(found):
            if j < len(fn.events):
                found |= _feeding(fn, fn.events[j], depth + 1)
    return found


def _fenced(project: ProjectView, fn: FunctionSummary, ev: Event) -> bool:
    """Written inside jobcheck.runtime's `fenced_transaction` (or another fence as a block)."""
    inside = set(ev.regions)
    return any(r.id in inside and project.canonical(r.name) in _FENCES for r in fn.regions)


def _long(project: ProjectView, reach: _Walks, ev: Event) -> str | None:
    """The long call this event makes, itself or through the project's helpers."""
    name = project.event_name(ev)
    if _is_long(name) or project.catalog.effect(name) is not None:
        return short(name)
    inner = next((hit for callee in project.callees(ev) if (hit := reach.long.below(callee.qualname)) is not None), None)
    return None if inner is None else " -> ".join([*(short(q) for q in inner[1]), inner[0]])


def _long_own(project: ProjectView, fn: FunctionSummary, ev: Event) -> str | None:
    """What makes a helper's own call long: a loop around it, the network, a sleep."""
    if ev.loops:
        return "a loop"
    name = project.event_name(ev)
    return short(name) if _is_long(name) or project.catalog.effect(name) is not None else None


def _is_long(name: str | None) -> bool:
    return bool(name) and _LONG.fullmatch(name) is not None


@dataclass(frozen=True)
class _Walks:
    long: Reach
    writes: Reach
