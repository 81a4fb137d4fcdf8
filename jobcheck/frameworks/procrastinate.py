"""Procrastinate: `@app.task`, `@app.task(...)` on a `procrastinate.App` (or the Django
integration's `procrastinate.contrib.django.app`), and on a `procrastinate.Blueprint` whose tasks
an app takes in with `add_tasks_from`; `@app.periodic(cron=...)` stacked on a task makes it
periodic. A task runs when deferred (`task.defer(...)`, `task.configure(...).defer(...)`), and
nothing given there changes its retries.

Retries: none unless `retry=` is written (Procrastinate's default is `retry=False`: a failed job
ends `failed`). `retry=N` retries N times (N + 1 runs) on any exception with no wait;
`retry=True` retries without limit; `retry=0` / `False` / `None` does not retry;
`retry=RetryStrategy(max_attempts=N, wait=, linear_wait=, exponential_wait=,
retry_exceptions={...})` retries up to `max_attempts` times (no limit when absent) on the listed
exceptions (any when absent), waiting `wait + linear_wait * attempts + exponential_wait **
(attempts + 1)` seconds. A `retry=` the module cannot read (a name bound elsewhere, a custom
`BaseRetryStrategy`) is taken to retry on any exception, without a known limit.
"""

from __future__ import annotations

from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from ..analysis.values import call_kwargs, call_name, lit, names, render
from .base import job_from_function, kwargs_of, matches, policy, retry_limit

# The objects whose `task` / `periodic` decorators declare tasks, by resolved name.
APPS = (
    "procrastinate.App()",
    "procrastinate.app.App()",
    "procrastinate.Blueprint()",
    "procrastinate.blueprints.Blueprint()",
    "procrastinate.contrib.django.app",
    "procrastinate.contrib.django.procrastinate_app.app",
)
TASK_DECORATORS = tuple(f"{app}.task" for app in APPS)
PERIODIC_DECORATORS = tuple(f"{app}.periodic" for app in APPS)
RETRY_STRATEGIES = ("procrastinate.RetryStrategy", "procrastinate.retry.RetryStrategy")
SETTINGS = ("name", "queue", "lock", "queueing_lock", "priority", "aliases", "pass_context", "retry")


class Procrastinate:
    name = "procrastinate"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return matches(name, TASK_DECORATORS + PERIODIC_DECORATORS)

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        periodic: set[str] = set()
        for d in decorated_functions(project, self.name):
            name = canonical_in(project, d.module, d.value[1]) or d.name
            qualname = d.function.qualname
            if name in PERIODIC_DECORATORS:
                periodic.add(qualname)
                continue
            if name not in TASK_DECORATORS or qualname in sites:
                continue
            kwargs = kwargs_of(d)
            site = job_from_function(project, d.function, self.name, "task", triggers={"enqueue"})
            site.retry = retry_policy(project, d.module, kwargs, d.anchor)
            site.settings = {k: v for k, v in kwargs.items() if k in SETTINGS}
            sites[qualname] = site
        for qualname in periodic & set(sites):
            sites[qualname].kind = "periodic"
            sites[qualname].triggers.add("schedule")
        return list(sites.values())

    def find_registrations(self, project: Project) -> list[Registration]:
        # `defer` / `configure(...).defer` only run a task the decorator made; no retry option there.
        return []


def retry_policy(project: Project, module, kwargs: dict, anchor: Anchor) -> RetryPolicy:
    value = kwargs.get("retry")
    written = lit(value, _UNREAD) if value is not None else None
    if value is None or written in (None, False, 0):
        setting = f"retry={render(value)}" if value is not None else "no retry= (Procrastinate's default: not retried)"
        return policy(setting, anchor, retries=RetryLimit.known(0), on=None, from_default=value is None, backoff="none")
    if written is True:
        return policy("retry=True", anchor, retries=RetryLimit.unlimited(), on=None, backoff="none", delay=0.0)
    if isinstance(written, int):
        return policy(f"retry={written}", anchor, retries=RetryLimit.known(written), on=None, backoff="none", delay=0.0)
    if (canonical_in(project, module, call_name(value)) or "") in RETRY_STRATEGIES:
        return _strategy(call_kwargs(value), f"retry={render(value)}", anchor)
    return policy(f"retry={render(value)} (not read)", anchor, retries=RetryLimit.unknown_count(render(value)), on=None)


def _strategy(options: dict, setting: str, anchor: Anchor) -> RetryPolicy:
    limit = retry_limit(options.get("max_attempts"), RetryLimit.unlimited(), unlimited=(None, 0))
    waits = {k: lit(options.get(k), 0) for k in ("wait", "linear_wait", "exponential_wait")}
    if not all(isinstance(v, (int, float)) for v in waits.values()):
        backoff, delay = None, None
    elif waits["exponential_wait"]:
        backoff, delay = "exponential", float(waits["wait"] + waits["exponential_wait"])
    elif waits["linear_wait"]:
        backoff, delay = "linear", float(waits["wait"])
    else:
        backoff, delay = ("constant" if waits["wait"] else "none"), float(waits["wait"])
    on = names(options.get("retry_exceptions")) if "retry_exceptions" in options else None
    return policy(setting, anchor, retries=limit, on=on, backoff=backoff, delay=delay)


_UNREAD = object()

FRAMEWORK = Procrastinate()
