"""Huey: `@huey.task`, `@huey.periodic_task`, `@huey.db_task`, `@huey.db_periodic_task`,
`@huey.context_task`, the djhuey module-level forms (`task`, `periodic_task`, `db_task`,
`db_periodic_task`, `on_commit_task`), and MiniHuey (`@huey.task(crontab(...))` is periodic).
Hooks (`on_startup`, `signal`, `pre_execute`, ...) are not tasks.

Retries: none unless `retries=N` (on the decorator, or at the call: `task(x, retries=3)`,
`task.s(..., retries=)`, `task.schedule(..., retries=)`), `retry_delay` defaults to 0 and
`retry_backoff` multiplies it. `raise RetryTask` re-enqueues the task whatever `retries` says,
without using one up: with `retries=0` nothing bounds it. `CancelExecution(retry=True)` retries.

The consumer runs callbacks of its own beside the tasks: signal handlers (`@huey.signal(...)`,
for each task's events) and `pre_execute`/`post_execute` hooks around each task, and the
`on_startup`/`on_shutdown` hooks once per worker.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in
from ..analysis.program import calls_named
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from ..analysis.values import lit
from .base import describe, job_from_function, policy, retry_limit

TASK_KINDS = {
    "task": "task", "db_task": "task", "context_task": "task", "on_commit_task": "task",
    "periodic_task": "periodic", "db_periodic_task": "periodic",
}
RETRY_KEYS = ("retries", "retry_delay", "retry_backoff")
SETTINGS = ("priority", "expires", "timeout", "name", "context")
# The consumer's own callbacks: {decorator: (kind, trigger)}.
HOOKS = {"signal": ("callback", "enqueue"), "pre_execute": ("callback", "enqueue"), "post_execute": ("callback", "enqueue"),
         "on_startup": ("background", "start"), "on_shutdown": ("background", "stop")}


def _is_huey(name: str) -> bool:
    return name.startswith("huey.") and name.rpartition(".")[2] in TASK_KINDS


def huey_policy(kwargs: dict, anchor, at_call: bool = False) -> RetryPolicy:
    limit = retry_limit(kwargs.get("retries"), RetryLimit.known(0), unlimited=())
    delay = lit(kwargs.get("retry_delay"), 0)
    factor = lit(kwargs.get("retry_backoff"), 0)
    written = describe(kwargs, RETRY_KEYS)
    if limit.count == 0:
        # Only `raise RetryTask` retries, and nothing counts those retries.
        return policy(f"{written + '; ' if written else 'retries=0 (default); '}only `raise RetryTask` retries", anchor, retries=RetryLimit.unlimited(), on=(), explicit=True,
                      from_default="retries" not in kwargs,
                      backoff="constant" if delay else "none", delay=float(delay) if isinstance(delay, (int, float)) else None)
    return policy(
        written + (" (at the enqueue call)" if at_call else ""),
        anchor,
        retries=limit,
        on=None,
        backoff="exponential" if isinstance(factor, (int, float)) and factor > 1 else ("constant" if delay else "none"),
        delay=float(delay) if isinstance(delay, (int, float)) else None,
    )


class Huey:
    name = "huey"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return _is_huey(name) or (name.startswith("huey.") and name.rpartition(".")[2] in HOOKS)

    def find_jobs(self, project: Project) -> list[JobSite]:
        hooks = []
        for d in decorated_functions(project, "huey"):
            name = canonical_in(project, d.module, d.value[1]) or ""
            hook = HOOKS.get(name.rpartition(".")[2]) if name.startswith("huey.") and not _is_huey(name) else None
            if hook is not None and project.the_applications(d.module):
                hooks.append(job_from_function(project, d.function, "huey", hook[0], triggers={hook[1]}))
        return list(_tasks(project).values()) + hooks

    def find_registrations(self, project: Project) -> list[Registration]:
        """Calling a task enqueues it; `retries=` at the call overrides the decorator's."""
        known = _tasks(project)
        regs = []
        for site in calls_named(project, ("s", "schedule", "map"), _reads_task_method):
            fn = project.function_for((canonical_in(project, site.module, site.event.name) or "").rpartition(".")[0])
            if fn is not None and fn.qualname in known:
                regs.append(self._call(site, fn.qualname, "schedule" if site.event.attr == "schedule" else "enqueue"))
        for qualname in known:
            for site in _direct_calls(project, qualname):
                regs.append(self._call(site, qualname, "enqueue"))
        return regs

    def _call(self, site, qualname: str, trigger: str) -> Registration:
        kwargs = site.event.kwargs
        retry = huey_policy(kwargs, site.anchor, at_call=True) if "retries" in kwargs else None
        return Registration(qualname, self.name, trigger, site.anchor, retry=retry)


def _direct_calls(project: Project, qualname: str):
    return project.once("huey direct calls", lambda: _compute_direct_calls(project)).get(qualname, [])


def _compute_direct_calls(project: Project) -> dict:
    index: dict = {}
    short = {q.rpartition(".")[2] for q in _tasks(project)}
    for site in calls_named(project, tuple(short), _reads_direct_call):
        fn = project.function_for(canonical_in(project, site.module, site.event.name))
        if fn is not None and fn.qualname in _tasks(project) and "retries" in site.event.kwargs:
            index.setdefault(fn.qualname, []).append(site)
    return index


def _tasks(project: Project) -> dict[str, JobSite]:
    return project.once("huey tasks", lambda: _compute_tasks(project))


def _compute_tasks(project: Project) -> dict[str, JobSite]:
    out: dict[str, JobSite] = {}
    handler = _error_signal(project)
    for d in decorated_functions(project, "huey"):
        name = canonical_in(project, d.module, d.value[1]) or ""
        if not _is_huey(name):
            continue
        kwargs = d.value[3] if d.is_call else {}
        kind = TASK_KINDS[name.rpartition(".")[2]]
        if "mini." in name and name.endswith(".task") and d.is_call and (d.value[2] or "validate_func" in kwargs):
            kind = "periodic"  # MiniHuey: `@huey.task(crontab(...))`
        site = job_from_function(project, d.function, "huey", kind, triggers={"schedule" if kind == "periodic" else "enqueue"})
        site.retry = None if "mini." in name else huey_policy(kwargs, d.anchor)
        if site.retry is not None:
            site.retry.failure_handler = handler
        site.settings = {k: v for k, v in kwargs.items() if k in SETTINGS}
        out[d.function.qualname] = site
    return out


def _error_signal(project: Project) -> str | None:
    """A `@huey.signal(SIGNAL_ERROR)` (or catch-all `@huey.signal()`) receiver sees failures."""
    for d in decorated_functions(project, "huey"):
        name = canonical_in(project, d.module, d.value[1]) or ""
        if not (name.startswith("huey.") and name.endswith(".signal")) or not d.is_call:
            continue
        signals = [canonical_in(project, d.module, a[1]) or "" for a in d.value[2] if a[0] == "name"]
        if not d.value[2] or any(s.endswith("SIGNAL_ERROR") for s in signals):
            return "SIGNAL_ERROR handler"
    return None


def _reads_task_method(project: Project, module, ev) -> bool:
    return project.function_for((canonical_in(project, module, ev.name) or "").rpartition(".")[0]) is not None


def _reads_direct_call(project: Project, module, ev) -> bool:
    return project.function_for(canonical_in(project, module, ev.name)) is not None


FRAMEWORK = Huey()
