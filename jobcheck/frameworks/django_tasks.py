"""Django's Tasks framework (`django.tasks`, new in Django 6.0) and its backport `django_tasks`
(PyPI `django-tasks`, for older Django): `@task`, `@task()` and `@task(priority=..., queue_name=...,
backend=..., takes_context=...)` (the backport also takes `enqueue_on_commit=`; Django 6.1 passes
any other keyword to the backend's `task_class`) turn a module-level function, sync or async, into
a `Task`; so does calling the decorator without decorator syntax, `post = task(fn)` or
`post = task(priority=..., ...)(fn)`. It runs when enqueued: `t.enqueue(...)`,
`await t.aenqueue(...)`, `t.using(priority=..., queue_name=..., run_after=..., backend=...)
.enqueue(...)`. With `takes_context=True` the function's first argument is a `TaskContext`
(`context.attempt`, from 1, and `context.task_result`).

Retries: none. Neither Django nor the backport retries a failed task: no `@task` option and no
`TASKS` setting asks for it; a task that raises ends `FAILED` with the error recorded in
`TaskResult.errors`. What runs a task is the backend `TASKS[alias]["BACKEND"]` (the alias is the
task's `backend=`, "default" unless written); when `TASKS` is not set, Django uses
`django.tasks.backends.immediate.ImmediateBackend` (the backport:
`django_tasks.backends.immediate.ImmediateBackend`), which runs the task at once in the caller's
thread. `TaskContext.attempt` exists so that backends may run a task again, but nothing in either
package does; a backend that does is a third party's, and not read here.

Delivery depends entirely on the backend: the immediate backend runs the task inside `enqueue`
(a crash of the caller loses it, a failure is not redelivered), the dummy backend never runs it,
and a worker backend (django-tasks-db, django-tasks-rq, ...) gives whatever its queue gives when a
worker dies mid-run or a message is delivered twice. Django promises neither at-most-once nor
at-least-once, which is why the five questions still apply to every task.
"""

from __future__ import annotations

from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in, target
from ..analysis.program import calls_named, modules_where
from ..analysis.decorators import Decorated, decorated_functions
from ..analysis.project import Project
from ..analysis.summary import ModuleSummary
from ..analysis.values import dict_items, lit
from .base import job_from_function, kwargs_of, policy

# The `task` decorator by resolved name: as each package exports it (`from django.tasks import
# task`, `import django.tasks`), and where it is defined (Django 6.0 `django/tasks/base.py`; the
# backport's `django_tasks/base.py`, and `django_tasks/task.py` before it).
TASK_DECORATORS = (
    "django.tasks.task",
    "django.tasks.base.task",
    "django_tasks.task",
    "django_tasks.base.task",
    "django_tasks.task.task",
)
# The retry setting: there is none. The backend decides how a task runs; these are the defaults.
SETTINGS_NAME = "TASKS"
DEFAULT_BACKEND_ALIAS = "default"
DEFAULT_BACKENDS = {
    "django.tasks": "django.tasks.backends.immediate.ImmediateBackend",
    "django_tasks": "django_tasks.backends.immediate.ImmediateBackend",
}


class DjangoTasks:
    name = "django_tasks"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return name in TASK_DECORATORS

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        for d in decorated_functions(project, self.name):
            name = _resolved(project, d)
            if name not in TASK_DECORATORS or d.function.qualname in sites:
                continue
            kwargs = kwargs_of(d)
            site = job_from_function(project, d.function, self.name, "task", triggers={"enqueue"})
            site.retry = _policy(name, kwargs, _backends(project), d.anchor)
            # Every keyword is listed: `priority`, `queue_name`, `backend`, `takes_context`,
            # `enqueue_on_commit`, and what a custom backend's `task_class` takes (Django 6.1).
            site.settings = {k: v for k, v in kwargs.items() if k != "**"}
            sites[site.function] = site
        for qualname, site in _made_by_call(project).items():
            sites.setdefault(qualname, site)
        return list(sites.values())

    def find_registrations(self, project: Project) -> list[Registration]:
        # `t.enqueue(...)`, `t.aenqueue(...)` and `t.using(...)` only run a task the decorator
        # already made (triggers={"enqueue"}), and nothing given there changes its retries.
        return []


def _resolved(project: Project, d: Decorated) -> str:
    written = d.value[1] if d.value and d.value[0] in ("name", "call") else None
    return canonical_in(project, d.module, written) or d.name


def _made_by_call(project: Project) -> dict[str, JobSite]:
    """`task(fn)`, and `task(...)(fn)`: the factory's call, then the call of what it returned,
    written at the same place (its keywords are the factory's)."""
    backends = _backends(project)
    out: dict[str, JobSite] = {}
    for site in calls_named(project, ("task",), _reads_task_call):
        events = site.function.events
        name, ev, kwargs = site.name, site.event, {}
        if not ev.args:
            kwargs = ev.kwargs
            ev = next((e for e in events[site.index + 1:] if (e.line, e.col) == (ev.line, ev.col) and e.kind == "call"
                       and canonical_in(project, site.module, e.name) == f"{name}()"), None)
            if ev is None:
                continue  # `@task(...)` on a function: a decorator, read above
        qualname = target(project, site.module, ev.args[0] if ev.args else None)
        if qualname is None or qualname in out:
            continue
        anchor = Anchor(site.module.path, ev.line, ev.col, ev.end_line, ev.end_col)
        job = job_from_function(project, project.functions[qualname], "django_tasks", "task", triggers={"enqueue"})
        job.retry = _policy(name, kwargs, backends, anchor)
        job.settings = {k: v for k, v in kwargs.items() if k != "**"}
        out[qualname] = job
    return out


def _reads_task_call(project: Project, module: ModuleSummary, event) -> bool:
    return canonical_in(project, module, event.name) in TASK_DECORATORS


def _policy(decorator: str, kwargs: dict, backends: dict, anchor: Anchor) -> RetryPolicy:
    """Django's default, the only policy there is: no retries. The setting names the backend
    that runs the task, the one thing that could change it."""
    package = "django.tasks" if decorator.startswith("django.tasks") else "django_tasks"
    alias = lit(kwargs.get("backend"), DEFAULT_BACKEND_ALIAS)
    where = anchor
    if not isinstance(alias, str):
        decides = "backend= not a constant"
    elif alias in backends:
        backend, where = backends[alias]
        decides = f"TASKS[{alias!r}] is {backend}"
    elif backends:
        decides = f"TASKS has no {alias!r} backend"
    else:
        decides = f"no TASKS setting: the default backend, {DEFAULT_BACKENDS[package]}"
    return policy(f"{package} has no retry setting; {decides}", where,
                  retries=RetryLimit.known(0), on=None, from_default=True, backoff="none")


def _backends(project: Project) -> dict[str, tuple[str, Anchor]]:
    """The project's `TASKS` setting: alias -> (BACKEND as written, where), from the first
    settings module that assigns `TASKS` a dict of dicts with a "BACKEND"."""
    return project.once("django tasks backends", lambda: _compute_backends(project))


def _compute_backends(project: Project) -> dict[str, tuple[str, Anchor]]:
    for mod in modules_where(project, _assigns_tasks_setting):
        value, line, col = mod.assigns[SETTINGS_NAME][:3]
        where = Anchor(mod.path, line, col, line, col + len(SETTINGS_NAME))
        found = {}
        for key, options in dict_items(value):
            for option, backend in dict_items(options):
                if lit(option) == "BACKEND" and isinstance(lit(key), str) and isinstance(lit(backend), str):
                    found[lit(key)] = (lit(backend), where)
        if found:
            return found
    return {}


def _assigns_tasks_setting(mod: ModuleSummary) -> bool:
    assign = mod.assigns.get(SETTINGS_NAME)
    return assign is not None and bool(assign[0]) and assign[0][0] == "dict"


FRAMEWORK = DjangoTasks()
