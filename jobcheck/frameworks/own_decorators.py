"""The application's own job decorators, read by what their bodies do and what they are called: a
decorator defined in the application that keeps the function it is given for a runner of its own
(hands it to a call, `Procedures.add_item(func, **kwargs)`, stores it in a module's table,
`REGISTRY[name] = func`, or marks it, `func._job_meta = ...`)
and gives it back, whose name says it makes jobs (`@job(name=..., max_workers=4)`, `@task`,
`@background_task(...)`, `@periodic(spacing=60)`). Each function it decorates in the application
is a job run by that runner: periodic when the keywords written where it is used, or set by the
factories it goes through, name a schedule (`every=`, `interval=`, `cron=`), or when one of them
is named for one (`@periodic`, `@hourly`), else a task.

A decorator that gives back, for the function, an object of the application's own that queues it
(`return RegisteredTask(func, queue=queue)`, a class with `enqueue`/`enqueue_in` or `delay`, or with
a method that sends a message to a queue or a broker a few calls down) makes a task whatever it is
called, also from a decorator it returns (`def task(func=None, **opts): def wrap(f): return
Wrapper(f, **opts)`); called with options first (`@register_task(job_id=...)`), it hands them back
to itself (`partial(register_task, ...)`).

A factory returning another's decorator is read through (`def schedule_often(every=10, **kw):
kw.update(every_unit="secondly", every=every); return background_task(**kw)`). A decorator a
framework reads, or one handing the function to a framework's (`analysis.forwarding`), is that
framework's, and so is any function a framework makes a job of (these registrations are
fallbacks). One that only wraps (`@log_task_info`) keeps nothing and makes no job, nor does one
attaching a callable of its own (`func.delay = defer`: `path_dispatch` reads that), whatever it is
called. Nothing is known of how the runner delivers or retries: no retry policy.
"""

from __future__ import annotations

import re

from ..analysis.decorators import written_decorators
from ..analysis.jobs import Registration
from ..analysis.names import canonical_in
from ..analysis.program import deco_name, in_tests
from ..analysis.project import Project
from .library_decorators import ANY_TASK

# Names of decorators that make jobs: a job or task noun, alone or after one word (`system_job`,
# `background_task`), or `periodic` (`periodic_task`).
_JOB_NAME = re.compile(r"^(?:[a-z]+_)?(?:job|task)$|^periodic(?:_(?:task|job))?$")
# Keywords that say when it runs, not what it is; a decorator or factory named so says it too (`@periodic`).
_SCHEDULE_WORDS = frozenset({"every", "every_unit", "interval", "cron", "crontab", "schedule", "spacing", "period",
                             "run_every", "hour", "hours", "minute", "minutes", "seconds", "daily", "hourly",
                             "periodic", "periodic_task", "periodic_job"})
_DEPTH = 3
# Methods of an object that queue the function it wraps (beside `enqueue*`).
_QUEUEING_METHODS = frozenset({"delay", "apply_async", "kiq", "defer", "defer_async"})


class OwnDecorators:
    name = "own_decorator"

    def find_jobs(self, project: Project) -> list:
        return []

    def find_registrations(self, project: Project) -> list[Registration]:
        makers = project.once("own job decorators", lambda: _job_decorators(project))
        if not makers:
            return []
        regs = []
        for mod, fn, decorators in written_decorators(project):
            for value, anchor in decorators:
                name = canonical_in(project, mod, deco_name(value)) if value[0] in ("name", "call") else None
                words = makers.get(name or "")
                if words is None:
                    continue
                if any(project.decorator_claims(mod, v, canonical_in(project, mod, deco_name(v))) - ANY_TASK
                       for v, _ in decorators if v[0] in ("name", "call")):
                    break  # a framework's job (or one its decorator hands on): the framework says
                used = set(value[3]) if value[0] == "call" else set()
                periodic = bool((words | used) & _SCHEDULE_WORDS)
                regs.append(Registration(fn.qualname, self.name, "schedule" if periodic else "enqueue", anchor,
                                         kind="periodic" if periodic else "task", fallback=True))
                break
        return regs


def _job_decorators(project: Project) -> dict[str, frozenset[str]]:
    """{qualname: the keywords its factories set or take} of each job decorator of the application."""
    out: dict[str, frozenset[str]] = {}
    for qualname, fn in project.functions.items():
        mod = project.function_module.get(qualname)
        if "<locals>" in qualname or fn.class_qualname or mod is None or in_tests(mod):
            continue
        found = _keeps(project, fn, 0)
        if found is not None and found[1]:
            out[qualname] = found[0]
    return out


def _keeps(project: Project, fn, depth: int) -> tuple[frozenset[str], bool] | None:
    """When `fn` is a decorator that keeps what it decorates and gives it back (`def job(func):
    REGISTRY.append(func); return func`), or a factory returning one (a nested decorator, or
    another factory's call: `schedule_often` returning `background_task(**kw)`): the keywords set
    or taken on the way, and whether one of them is named as making jobs. Else None."""
    if depth > _DEPTH:
        return None
    words = frozenset(fn.params) | {k for ev in fn.events if ev.kind == "call" for k in ev.kwargs if k != "**"} | {fn.name}
    named = bool(_JOB_NAME.match(fn.name))
    if len(fn.params) == 1 and _keeps_its_parameter(fn, fn.params[0]):
        return words, named
    if fn.params and _wraps_in_a_task_object(project, fn, fn.params[0]):
        return words, True
    inner = project.functions.get(fn.returns_function or "")
    if inner is not None and len(inner.params) == 1 and _wraps_in_a_task_object(project, inner, inner.params[0]):
        return words, True  # `def task(func=None, **opts): def wrap(f): return TaskWrapper(f, **opts) ...`
    if inner is not None and len(inner.params) == 1 and _keeps_its_parameter(inner, inner.params[0]):
        return words | {k for ev in inner.events if ev.kind == "call" for k in ev.kwargs if k != "**"}, named
    returned = fn.return_type or ""
    factory = project.functions.get(project.canonical(returned.removesuffix("()")) or "") if returned.endswith("()") else None
    found = _keeps(project, factory, depth + 1) if factory is not None and factory is not fn else None
    return (words | found[0], named or found[1]) if found is not None else None


def _wraps_in_a_task_object(project: Project, fn, param: str) -> bool:
    """`fn` gives back, for the function it is given, an object of the application's own that
    queues it (`return RegisteredTask(func, queue=queue)`, or `t = Task(func=func); registry.add(t);
    return t`, whose class has `enqueue`, `enqueue_in`,
    `delay`, or a method that sends a message to a queue or a broker a few calls down:
    `boto3.client("sqs").send_message(...)`): what it decorates is run by that queue, whatever the
    decorator is called (called with options first, `@register_task(job_id=...)`, it names the same
    decorator: `func=None` hands them back to itself through `partial(register_task, ...)`)."""
    for i in fn.returns:
        ev = fn.events[i] if i < len(fn.events) else None
        made = (project.canonical(ev.name) or "").removesuffix("()") if ev is not None and ev.kind == "call" else ""
        cls = project.classes.get(made)
        given = [*ev.args[:1], *ev.kwargs.values()]  # `Task(func, ...)` or `Task(func=func, ...)`
        if cls is None or not any(v and v[:2] == ["param", param] for v in given):
            continue
        methods = [(c, m) for c in project._mro(cls) for m in c.methods]
        if any(m.startswith("enqueue") or m in _QUEUEING_METHODS for _, m in methods) or any(
                _sends(project, project.functions[f"{c.qualname}.{m}"], 0, set()) for c, m in methods
                if not m.startswith("_") and f"{c.qualname}.{m}" in project.functions):
            return True
    return False


def _sends(project: Project, fn, depth: int, seen: set) -> bool:
    """`fn`, or what it calls or hands a callable of its own to (`transaction.on_commit(self._send)`)
    a few calls down, sends a message to a queue or a broker."""
    if fn.qualname in seen or depth > _DEPTH:
        return False
    seen.add(fn.qualname)
    for ev in fn.events:
        if ev.kind != "call" or ev.in_test:
            continue
        hit = project.catalog_effect(ev)
        if hit is not None and hit.kind in ("enqueue", "publish"):
            return True
        handed = [project.function_for(a[1]) for a in ev.args if a and a[0] == "name"]
        if any(_sends(project, callee, depth + 1, seen) for callee in [*project.callees(ev), *handed] if callee is not None):
            return True
    return False


def _keeps_its_parameter(fn, param: str) -> bool:
    """`fn` gives back its parameter after handing it to a call, storing it in a module's table
    (`REGISTRY[name] = fn`) or setting an attribute on it."""
    if param not in fn.returns_param:
        return False
    handed = any(ev.kind == "call" and any(_holds(a, param) for a in ev.args) for ev in fn.events) \
        or any(_holds(value, param) for _table, _line, value in fn.table_stores)
    # A mark, not a callable of its own attached (`func.delay = defer`: a queue the decorator
    # defers calls to, which `path_dispatch` reads).
    marked = any(receiver == param and not (value and value[0] == "name" and ".<locals>." in (value[1] or ""))
                 for _attr, _line, receiver, _src, value in fn.stores)
    return handed or marked


def _holds(value: list | None, param: str) -> bool:
    """The Value is the parameter, or a tuple or list holding it (`REGISTRY.append((func, options))`)."""
    if not value:
        return False
    if value[0] == "param":
        return value[1] == param
    return value[0] == "seq" and any(_holds(v, param) for v in value[1])


FRAMEWORK = OwnDecorators()
