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
from ..analysis.program import bound_argument, calls_named
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
            by_path, as_given = _stored_params(project, fn)
            for param in by_path:
                regs.append(Registration("", self.name, "enqueue", project.anchor_of(fn), kind="task",
                                         forward=(fn.qualname, fn.params.index(param), param)))
            for param in as_given:
                regs.extend(_paths_passed(project, fn, param, self.name))
        return regs


def _stored_params(project: Project, fn) -> tuple[list[str], list[str]]:
    """The parameters a write or enqueue of `fn` stores: by their dotted path (`f"{func.__module__}
    .{func.__name__}"`, or a helper returning it), so whatever function callers pass runs later;
    or as given, where only a dotted path written by the callers names one (a function or a
    property's value is not what such a row can hold)."""
    carriers: dict[int, str] = {}  # event -> the parameter whose path it returns (`get_name(func)`)
    for i, ev in enumerate(fn.events):
        if ev.kind != "call" or not any(v[0] == "param" for v in ev.args):
            continue  # cheap test first: most calls pass no parameter on
        callee = project.callee(ev)
        if callee is None or not callee.returns_param:
            continue
        offset = 1 if callee.class_qualname and callee.params and callee.params[0] in ("self", "cls") else 0
        for j, value in enumerate(ev.args):
            if value[0] == "param" and j + offset < len(callee.params) and callee.params[j + offset] in callee.returns_param:
                carriers[i] = value[1]
    by_path: list[str] = []
    as_given: list[str] = []
    for ev in fn.events:
        if ev.kind != "call":
            continue
        given = list(_params_in([*ev.args, *ev.kwargs.values()]))
        fed = [carriers[j] for s in (*ev.argsrc, *ev.kwsrc.values()) for j in s if j in carriers] if carriers else []
        if not (given or fed) or not _stores(project, fn, ev):
            continue
        for value in given:
            (by_path if len(value) > 3 else as_given).append(value[1])
        by_path.extend(fed)
    keep = [p for p in fn.params if p not in ("self", "cls")]
    return ([p for p in keep if p in by_path], [p for p in keep if p in as_given and p not in by_path])


def _paths_passed(project: Project, fn, param: str, framework: str) -> list[Registration]:
    """The functions callers name by a dotted path for `param` (`schedule("purge", "app.tasks.purge")`)."""
    regs = []
    for site in calls_named(project, (fn.name,)):
        if project.function_for(site.name) is not fn:
            continue
        value = bound_argument(fn, site.event, param)
        if value and value[0] == "lit" and isinstance(value[1], str) and "." in value[1]:
            named = target(project, site.module, value)
            if named:
                regs.append(Registration(named, framework, "enqueue", site.anchor, kind="task"))
    return regs


def _stored_paths(project: Project, fn, framework: str) -> list[Registration]:
    """Functions a write names by their dotted path (`defaults={"task_name": "app.tasks.purge"}`)."""
    regs = []
    module = project.function_module.get(fn.qualname)
    for ev in fn.events:
        if ev.kind != "call" or not (ev.args or ev.kwargs):
            continue
        for value in _literals_in([*ev.args, *ev.kwargs.values()]):
            if not (isinstance(value[1], str) and "." in value[1] and " " not in value[1]):
                continue
            named = target(project, module, value)
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
