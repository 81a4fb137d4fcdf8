"""Task systems of the application's own that store what to run by its dotted path: a helper
takes a function, writes its path to a row or a queue, and a worker elsewhere imports and runs it.

    def dispatch(func, args=(), **options):                  # dispatch(orphan_cleanup, args=(...))
        name = f"{func.__module__}.{func.__name__}"          # or a helper returning it
        Task.objects.create(name=name, args=args, **options)

    def schedule(name, task_name, every):                    # schedule("purge", "app.tasks.purge", 600)
        TaskSchedule.objects.update_or_create(name=name, defaults={"task_name": task_name, ...})

    def shared_task(function):                               # @shared_task, then send.delay(...)
        def delayed(*args, **kwargs):
            Task.objects.create(task_name=name, args=json.dumps(args), kwargs=json.dumps(kwargs))
        name = function.__module__ + "." + function.__name__
        function.delay = delayed
        registry[name] = function
        return function

Where the worker finds what to run by an attribute path on an object of the application's
(`func = operator.attrgetter(job.function)(self.root_socket)`), a string stored in that field
(`function=`, directly or through a parameter, also into a row built first and then written:
`InternalJobORM(function=function)` then `session.add(...)`) names a method by that path:
`"serverinfo.update_stats"` is the `update_stats` of the class whose instance some class of the
project holds as `self.serverinfo = ServerInfoSocket(self)`, when exactly one such method exists.

Read by data flow, not names: a parameter whose value (or dotted path) reaches a database write or
an enqueue/publish effect of the helper makes every function its callers pass (a reference, or a
string naming a function of the project by its dotted path) a job. A function can only be stored
by its path, so what else callers pass there (data, names of other things) denotes no function and
registers nothing. A decorator is such a system when it returns the function it is given with a
callable attached whose write or enqueue stores the arguments that callable is called with: a call
deferred to a worker (whatever the decorator is named, `shared_task` included: it is not Celery's).
"""

from __future__ import annotations

from ..analysis.jobs import Anchor, Registration
from ..analysis.names import canonical_in, target
from ..analysis.program import bound_argument, calls_named
from ..analysis.project import Project
from ..analysis.summary import MODULE_CODE
from .base import job_from_function

_STORES = ("enqueue", "publish")


class PathDispatch:
    name = "dispatch"

    def find_jobs(self, project: Project) -> list:
        deferring = _deferring_decorators(project)
        if not deferring:
            return []
        return [job_from_function(project, fn, self.name, "task", triggers={"enqueue"})
                for mod in project.modules.values() for fn in mod.functions.values()
                if any(value[0] == "name" and canonical_in(project, mod, value[1]) in deferring
                       for value, *_ in fn.decorators)]

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
        callee = project.named_callee(ev)
        if callee is None or not callee.returns_param:
            continue
        offset = 1 if callee.class_qualname and callee.params and callee.params[0] in ("self", "cls") else 0
        for j, value in enumerate(ev.args):
            if value[0] == "param" and j + offset < len(callee.params) and callee.params[j + offset] in callee.returns_param:
                carriers[i] = value[1]
    by_path: list[str] = []
    as_given: list[str] = []
    fields = _dispatch_fields(project)
    for ev in fn.events:
        if ev.kind != "call":
            continue
        given = list(_params_in([*ev.args, *ev.kwargs.values()]))
        fed = [carriers[j] for s in (*ev.argsrc, *ev.kwsrc.values()) for j in s if j in carriers] if carriers else []
        # What built the row or statement it writes: `InternalJobORM(function=function)` then
        # `session.add(job_orm)`; `insert(Job).values(function=function)` then `session.execute(stmt)`
        # (only under a field the application runs by attribute path: `_dispatch_fields`).
        built = [value for j in _feeding(fn, ev) for key, v in fn.events[j].kwargs.items() if key in fields
                 for value in _params_in([v])] if fields else []
        if not (given or fed or built) or not _stores(project, fn, ev):
            continue
        given += built
        for value in given:
            (by_path if len(value) > 3 else as_given).append(value[1])
        by_path.extend(fed)
    keep = [p for p in fn.params if p not in ("self", "cls")]
    return ([p for p in keep if p in by_path], [p for p in keep if p in as_given and p not in by_path])


def _feeding(fn, ev, depth: int = 4) -> set[int]:
    """The calls whose results flow into a call's arguments or its receiver, a few steps back."""
    found: set[int] = set()
    todo = [(ev, 0)]
    while todo:
        event, d = todo.pop()
        for j in (*(k for s in (*event.argsrc, *event.kwsrc.values()) for k in s), *event.receiver_src):
            if j not in found and d < depth and j < len(fn.events):
                found.add(j)
                todo.append((fn.events[j], d + 1))
    return found


def _deferring_decorators(project: Project) -> set[str]:
    """The application's decorators that attach a deferred call to the function they return
    (`function.delay = delayed; return function`, `delayed` storing its arguments for a worker)."""
    def defers(fn) -> bool:
        if not fn.stores or not fn.params or fn.params[0] not in fn.returns_param:
            return False
        nested = fn.qualname + ".<locals>."
        return any(receiver == fn.params[0] and value[0] == "name" and (value[1] or "").startswith(nested)
                   and (inner := project.functions.get(value[1])) is not None and _stores_arguments(project, inner)
                   for _attr, _line, receiver, _src, value in fn.stores)

    return {fn.qualname for fn in project.functions.values() if defers(fn)}


def _stores_arguments(project: Project, fn) -> bool:
    """Does a write or enqueue of `fn` hold what `fn` was called with (`args=json.dumps(args)`)?"""
    own = set(fn.params)
    return any(ev.kind == "call" and _mentions([*ev.args, *ev.kwargs.values()], own) and _stores(project, fn, ev)
               for ev in fn.events)


def _mentions(values, params: set, depth: int = 0) -> bool:
    """Do argument Values hold one of `params`, also inside calls (`json.dumps(args)`)?"""
    for value in values:
        if not value or depth > 3:
            continue
        kind = value[0]
        if (kind == "param" and value[1] in params) or (kind == "call" and _mentions([*value[2], *value[3].values()], params, depth + 1)):
            return True
        if (kind == "seq" and _mentions(value[1], params, depth + 1)) or (kind == "dict" and _mentions([v for _, v in value[1]], params, depth + 1)):
            return True
    return False


def _paths_passed(project: Project, fn, param: str, framework: str) -> list[Registration]:
    """The functions callers name by a dotted path for `param` (`schedule("purge", "app.tasks.purge")`)."""
    regs = []
    for site in calls_named(project, (fn.name,)):
        if project.function_for(site.name) is not fn:
            continue
        value = bound_argument(fn, site.event, param)
        if value and value[0] == "lit" and _dotted_path(value[1]):
            named = target(project, site.module, value) or (
                _by_attribute_path(project, value[1]) if _written_as_dispatch_field(project, fn, param) else None)
            if named:
                regs.append(Registration(named, framework, "enqueue", site.anchor, kind="task"))
    return regs


def _stored_paths(project: Project, fn, framework: str) -> list[Registration]:
    """Functions a write names by their dotted path (`defaults={"task_name": "app.tasks.purge"}`)."""
    regs = []
    module = project.function_module.get(fn.qualname)
    fields = _dispatch_fields(project)
    for ev in fn.events:
        if ev.kind != "call" or not (ev.args or ev.kwargs):
            continue
        for value in _literals_in([*ev.args, *ev.kwargs.values()]):
            if not _dotted_path(value[1]):
                continue
            named = target(project, module, value) or (
                _by_attribute_path(project, value[1]) if any(ev.kwargs.get(f) == value for f in fields) else None)
            if named and _stores(project, fn, ev):
                anchor = Anchor(module.path, ev.line, ev.col, ev.end_line, ev.end_col)
                regs.append(Registration(named, framework, "enqueue", anchor, kind="task"))
    return regs


def _dispatch_fields(project: Project) -> frozenset:
    """The fields whose stored names the application runs by attribute path: `job.function` in
    `operator.attrgetter(job.function)(self.root)` (a field of an object, called on an object)."""
    def find() -> frozenset:
        out = set()
        for fn in project.functions.values():
            if not any(ev.name == "operator.attrgetter()" and ev.args for ev in fn.events):
                continue
            for ev in fn.events:
                value = ev.args[0] if ev.name == "operator.attrgetter" and len(ev.args) == 1 else None
                if value and value[0] == "name" and "()." in str(value[1]):
                    out.add(str(value[1]).rpartition(".")[2])
                elif value and value[0] == "param_attr":  # `attrgetter(job.function)` of a parameter `job`
                    out.add(value[3])
        return frozenset(out)
    return project.once("dispatch fields", find)


def _written_as_dispatch_field(project: Project, fn, param: str) -> bool:
    """Does `fn` write its parameter under a dispatch field (`InternalJobORM(function=function)`)?"""
    fields = _dispatch_fields(project)
    return bool(fields) and any(key in fields and v and v[0] == "param" and v[1] == param
                                for ev in fn.events for key, v in ev.kwargs.items())


def _by_attribute_path(project: Project, path: str) -> str | None:
    """The method `"holder.method"` names through the instances the project's classes hold (see
    the module's doc), when exactly one method answers; None otherwise."""
    index = project.once("attribute paths", lambda: _held_instances(project))
    holder, _, method = path.partition(".")
    if not method or "." in method:
        return None
    found = {owner.qualname for cls in index.get(holder, ())
             if (owner := next((c for c in project._mro(cls) if method in c.methods), None)) is not None}
    return f"{found.pop()}.{method}" if len(found) == 1 else None


def _held_instances(project: Project) -> dict[str, list]:
    """{attribute: the project's classes whose instances some class holds under that name
    (`self.serverinfo = ServerInfoSocket(self)`)}."""
    out: dict[str, list] = {}
    for fn in project.functions.values():
        for attr, _line, receiver, _src, value in fn.stores if fn.class_qualname else ():
            if receiver == "self" and value and value[0] == "call" and (cls := project.classes.get(value[1])) is not None:
                if cls not in out.setdefault(attr, []):
                    out[attr].append(cls)
    return out


def _dotted_path(value) -> bool:
    """A string that can name a function by its dotted path (`"app.tasks.purge"`, not a regular
    expression or a sentence with a dot)."""
    return isinstance(value, str) and "." in value and all(
        part.isidentifier() for part in value.replace(":", ".").split("."))  # `"app.tasks:purge"` too


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
