"""What a job does that its reader should know, beyond what the rules report: the external effects
it makes behind a guard jobcheck recognises, and what stands between two of its runs (the locks
it takes, the settings that limit overlap). `jobcheck jobs` lists them and `--fix` writes them
into the five-questions section; no rule reads them, so a miss costs a line of description.
"""

from __future__ import annotations

from ..effects.catalog import EXTERNAL_KINDS
from .names import short
from .project import Project

MAX_REACH = 200  # functions walked from a job
# Settings that decide whether two runs of a job can overlap, by framework.
OVERLAP_SETTINGS = ("max_instances", "coalesce", "max_active_runs", "unique", "lock", "singleton")
# Calls and `with` items that take a lock or a lease, by the last part of their resolved name.
_LOCK_ATTRS = ("lock", "Lock()", "RLock()", "acquire", "acquire_lock", "pg_advisory_lock",
               "pg_advisory_xact_lock", "pg_try_advisory_lock", "pg_try_advisory_xact_lock", "select_for_update")


def reach(project: Project, qualname: str) -> list[str]:
    """The function and the project's functions it calls, nearest first (bounded)."""
    seen, queue = [qualname], [qualname]
    while queue and len(seen) < MAX_REACH:
        for callee in project.callees_of(queue.pop(0)) or ():
            if callee not in seen and callee in project.functions:
                seen.append(callee)
                queue.append(callee)
    return seen


def guarded_effects(project: Project, qualname: str) -> list[tuple[str, str, str]]:
    """(kind, call, function) for each external effect the job reaches behind a guard (a key, a
    marker, a read of the far end's state), once per kind and call."""
    out: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str]] = set()
    for q in reach(project, qualname) if qualname in project.functions else ():
        fn = project.functions[q]
        for i, ev in enumerate(fn.events):
            path = project.direct_effect(fn, ev)
            if path is None or path.kind not in EXTERNAL_KINDS or (path.kind, path.chain[-1]) in seen:
                continue
            if project.is_guarded(fn, i):
                seen.add((path.kind, path.chain[-1]))
                out.append((path.kind, path.chain[-1], q))
    return out


def locks_taken(project: Project, qualname: str) -> list[str]:
    """The locks and leases the job's own body takes (`with cache.lock(...)`, `SET NX`), short names."""
    fn = project.functions.get(qualname)
    if fn is None:
        return []
    seen: list[str] = []
    for ev in fn.events:
        if ev.kind == "call" and ev.attr == "set" and "nx" in ev.kwargs:
            seen.append(short(project.event_name(ev) or "set") + "(nx=True)")
    names = [project.canonical(r.name) for r in fn.regions]
    names += [project.event_name(ev) for ev in fn.events if ev.kind == "call"]
    for name in names:
        if name and name.rpartition(".")[2] in _LOCK_ATTRS:
            label = short(name)
            if label not in seen:
                seen.append(label)
    return seen
