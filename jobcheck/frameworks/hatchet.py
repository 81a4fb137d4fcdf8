"""Hatchet (`hatchet-sdk`): on a `hatchet_sdk.Hatchet()` client, standalone tasks
`@hatchet.task(...)` / `@hatchet.durable_task(...)`, and the tasks of a workflow made with
`hatchet.workflow(...)`: `@wf.task(...)`, `@wf.durable_task(...)`, `@wf.on_failure_task(...)`,
`@wf.on_success_task(...)`. The v0 style is read too: the methods of a `@hatchet.workflow(...)`
class decorated `@hatchet.step(...)` or `@hatchet.on_failure_step(...)`. A task with `on_crons=`
(on the task, or on the v0 workflow class) is periodic; a v1 workflow's own `on_crons=` is not
read (the decorator does not say which workflow object it comes from). Running a task
(`task.run(...)`, `aio_run`, `run_no_wait`) passes no retry option.

Retries: `retries=` on the task or step, default 0 (a failed task is not run again). With
`retries=N` Hatchet runs a task that raises (any exception but `NonRetryableException`) up to N
more times, after a short delay; `backoff_factor=` makes the delay grow exponentially, capped by
`backoff_max_seconds=`.
"""

from __future__ import annotations

from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in
from ..analysis.program import deco_name
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from ..analysis.values import call_kwargs, lit
from .base import describe, job_from_function, kwargs_of, matches, policy, retry_limit

CLIENTS = (
    "hatchet_sdk.Hatchet()",
    "hatchet_sdk.hatchet.Hatchet()",
    "hatchet_sdk.v0.Hatchet()",
    "hatchet_sdk.v0.hatchet.Hatchet()",
)
STANDALONE = tuple(f"{c}.{m}" for c in CLIENTS for m in ("task", "durable_task"))
WORKFLOW_TASKS = tuple(f"{c}.workflow().{m}" for c in CLIENTS
                       for m in ("task", "durable_task", "on_failure_task", "on_success_task"))
STEPS = tuple(f"{c}.{m}" for c in CLIENTS for m in ("step", "on_failure_step"))
WORKFLOW_CLASS = tuple(f"{c}.workflow" for c in CLIENTS)
RETRY_KEYS = ("retries", "backoff_factor", "backoff_max_seconds")
SETTINGS = ("name", "on_crons", "on_events", "parents", "timeout", "execution_timeout", "schedule_timeout",
            "concurrency", "rate_limits", *RETRY_KEYS)
DEFAULT_RETRIES = 0


class Hatchet:
    name = "hatchet"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return matches(name, STANDALONE + WORKFLOW_TASKS + STEPS)

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        for d in decorated_functions(project, self.name):
            name = canonical_in(project, d.module, d.value[1]) or d.name
            if d.function.qualname in sites or not matches(name, STANDALONE + WORKFLOW_TASKS + STEPS):
                continue
            kwargs = kwargs_of(d)
            step = name in STEPS
            crons = "on_crons" in kwargs or (step and _class_has_crons(project, d))
            site = job_from_function(project, d.function, self.name, "periodic" if crons else ("step" if step else "task"),
                                     triggers={"schedule", "enqueue"} if crons else {"enqueue"})
            site.retry = retry_policy(kwargs, d.anchor)
            site.settings = {k: v for k, v in kwargs.items() if k in SETTINGS}
            sites[d.function.qualname] = site
        return list(sites.values())

    def find_registrations(self, project: Project) -> list[Registration]:
        return []  # `run` / `aio_run` / `run_no_wait` / `schedule` take no retry option


def retry_policy(kwargs: dict, anchor: Anchor) -> RetryPolicy:
    limit = retry_limit(kwargs.get("retries"), RetryLimit.known(DEFAULT_RETRIES), unlimited=())
    if limit.count == 0:
        setting = describe(kwargs, ("retries",)) or f"no retries= (Hatchet's default: retries={DEFAULT_RETRIES})"
        return policy(setting, anchor, retries=RetryLimit.known(0), on=None, from_default="retries" not in kwargs, backoff="none")
    factor = lit(kwargs.get("backoff_factor"))
    exponential = isinstance(factor, (int, float)) and not isinstance(factor, bool) and factor > 1
    return policy(describe(kwargs, RETRY_KEYS), anchor, retries=limit, on=None,
                  backoff="exponential" if exponential else ("constant" if factor is None else None))


def _class_has_crons(project: Project, d) -> bool:
    """A v0 step: does its `@hatchet.workflow(on_crons=...)` class run on a schedule?"""
    cls = project.classes.get(d.function.class_qualname or "")
    if cls is None:
        return False
    for value, *_ in cls.decorators:
        if (canonical_in(project, d.module, deco_name(value)) or "") in WORKFLOW_CLASS and call_kwargs(value).get("on_crons"):
            return True
    return False


FRAMEWORK = Hatchet()
