"""Task systems of the application's own that store what to run by its dotted path: a helper
takes a function, writes its path to a row or a queue, and a worker elsewhere imports and runs it.

    def dispatch(func, args=(), **options):                  # dispatch(orphan_cleanup, args=(...))
        name = f"{func.__module__}.{func.__name__}"          # or a helper returning it
        Task.objects.create(name=name, args=args, **options)

    def schedule(name, task_name, every):                    # schedule("purge", "app.tasks.purge", 600)
        TaskSchedule.objects.update_or_create(name=name, defaults={"task_name": task_name, ...})

Read by data flow, not names: a parameter whose value (or dotted path) reaches a database write or
an enqueue/publish effect of the helper makes every function its callers pass (a reference, or a
string naming a function of the project by its dotted path) a job. A function can only be stored
by its path, so what else callers pass there (data, names of other things) denotes no function and
registers nothing.
"""

from __future__ import annotations

from ..analysis.jobs import Anchor, Registration
from ..analysis.names import target
from ..analysis.project import Project
from ..analysis.summary import MODULE_CODE

_STORES = ("enqueue", "publish")


class PathDispatch:
    name = "dispatch"

    def find_jobs(self, project: Project) -> list:
        return []

    def find_registrations(self, project: Project) -> list[Registration]:
        regs = []
        for fn in project.functions.values():
            regs.extend(_stored_paths(project, fn, self.name))
            if fn.name == MODULE_CODE or not fn.params:
                continue
            for param in _stored_params(project, fn):
                regs.append(Registration("", self.name, "enqueue", project.anchor_of(fn), kind="task",
                                         forward=(fn.qualname, fn.params.index(param), param)))
        return regs


def _stored_params(project: Project, fn) -> list[str]:
    """The parameters whose value or dotted path a write or enqueue of `fn` stores."""
    carriers: dict[int, str] = {}  # event -> the parameter whose path it returns (`get_name(func)`)
    for i, ev in enumerate(fn.events):
        callee = project.callee(ev) if ev.kind == "call" else None
        if callee is None or not callee.returns_param:
            continue
        offset = 1 if callee.class_qualname and callee.params and callee.params[0] in ("self", "cls") else 0
        for j, value in enumerate(ev.args):
            if value[0] == "param" and j + offset < len(callee.params) and callee.params[j + offset] in callee.returns_param:
                carriers[i] = value[1]
    found: list[str] = []
    for i, ev in enumerate(fn.events):
        if ev.kind != "call" or not _stores(project, fn, ev):
            continue
        named = {v[1] for v in _params_in([*ev.args, *ev.kwargs.values()])}
        fed = {j for s in (*ev.argsrc, *ev.kwsrc.values()) for j in s}
        named |= {carriers[j] for j in fed if j in carriers}
        found.extend(p for p in sorted(named) if p in fn.params and p not in found and p not in ("self", "cls"))
    return found


def _stored_paths(project: Project, fn, framework: str) -> list[Registration]:
    """Functions a write names by their dotted path (`defaults={"task_name": "app.tasks.purge"}`)."""
    regs = []
    module = project.function_module.get(fn.qualname)
    for ev in fn.events:
        if ev.kind != "call":
            continue
        for value in _literals_in([*ev.args, *ev.kwargs.values()]):
            named = target(project, module, value) if isinstance(value[1], str) and "." in value[1] else None
            if named and _stores(project, fn, ev):
                anchor = Anchor(module.path, ev.line, ev.col, ev.end_line, ev.end_col)
                regs.append(Registration(named, framework, "enqueue", anchor, kind="task"))
    return regs


def _stores(project: Project, fn, ev) -> bool:
    """A write of the application's own (a library's model, `Schedule.objects.create(func=...)`
    of django-q, is that library's framework's to read) or an enqueue/publish."""
    model, objects, _ = (project.event_name(ev) or "").partition(".objects.")
    if objects and model not in project.classes:
        return False
    if project.writes_db(ev, fn):
        return True
    # The catalog, not `direct_effect`: that asks which functions are jobs, which this decides.
    hit = project.catalog.effect(project.event_name(ev))
    return hit is not None and hit.kind in _STORES


def _params_in(values):
    return _values_in(values, "param")


def _literals_in(values):
    return _values_in(values, "lit")


def _values_in(values, kind: str, depth: int = 0):
    """The Values of a kind inside argument Values (`defaults={"task_name": task_name}`)."""
    for value in values:
        if not value or depth > 3:
            continue
        if value[0] == kind:
            yield value
        elif value[0] == "seq":
            yield from _values_in(value[1], kind, depth + 1)
        elif value[0] == "dict":
            yield from _values_in([v for _, v in value[1]], kind, depth + 1)


FRAMEWORK = PathDispatch()
