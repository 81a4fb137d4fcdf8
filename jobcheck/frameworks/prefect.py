"""Prefect: `@flow` (kind "flow") and `@task` / `@materialize` (kind "task").

Retries: `retries` (default 0, Prefect's PREFECT_FLOW_DEFAULT_RETRIES and
PREFECT_TASK_DEFAULT_RETRIES), `retry_delay_seconds` (a number, one number per retry, or
`exponential_backoff(backoff_factor=...)`; default 0), `retry_condition_fn` (decides per
failure, so any exception may retry), `on_failure` hooks (who sees exhaustion). A task does not
inherit its flow's retries. `my_task.with_options(retries=3)` retries the same function wherever
that copy is used: the policy with the most retries is the one reported. `.serve(cron=...)`,
`.deploy(...)` and `.to_deployment(...)` with a schedule make a flow scheduled.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.program import calls_named
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from ..analysis.values import call_name, lit
from .base import describe, job_from_function, policy, retry_limit

FLOW_DECORATORS = ("prefect.flow", "prefect.flows.flow")
TASK_DECORATORS = ("prefect.task", "prefect.tasks.task", "prefect.materialize", "prefect.assets.materialize",
                   "prefect.assets.materialize.materialize")
RETRY_KEYS = ("retries", "retry_delay_seconds", "retry_jitter_factor", "retry_condition_fn")
SCHEDULE_KEYS = ("cron", "interval", "rrule", "schedule", "schedules")
DEFAULT_RETRIES = 0


def retry_policy(kwargs: dict, anchor, project: Project) -> RetryPolicy:
    retries_value = project.deref(kwargs.get("retries"))
    # `retries=None` is Prefect's default, not "no limit"
    limit = retry_limit(retries_value, RetryLimit.known(DEFAULT_RETRIES), unlimited=())
    backoff, delay = _delay(project.deref(kwargs.get("retry_delay_seconds")))
    failure = "on_failure" if kwargs.get("on_failure") else None
    written = describe(kwargs, RETRY_KEYS)
    return policy(
        written or f"no retries (Prefect's default retries={DEFAULT_RETRIES})",
        anchor,
        retries=limit,
        on=None,
        from_default="retries" not in kwargs,
        backoff=backoff,
        delay=delay,
        failure_handler=failure,
    )


def _delay(value: list | None) -> tuple[str, float | None]:
    """`retry_delay_seconds` as (backoff, first delay)."""
    if value is None:
        return "none", 0.0
    if (call_name(value) or "").rpartition(".")[2] == "exponential_backoff":
        return "exponential", None
    v = lit(value, None)
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return ("constant" if v else "none"), float(v)
    if isinstance(v, tuple) and v and all(isinstance(x, (int, float)) for x in v):
        growing = len(v) > 1 and list(v) == sorted(v) and v[-1] > v[0]
        return ("exponential" if growing else "constant"), float(v[0])
    return "constant", None  # a callable or a computed value


class Prefect:
    name = "prefect"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return name in FLOW_DECORATORS or name in TASK_DECORATORS

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        for d in decorated_functions(project, self.name):
            if d.name in FLOW_DECORATORS:
                kind = "flow"
            elif d.name in TASK_DECORATORS:
                kind = "task"
            else:
                continue
            if d.function.qualname in sites:
                continue
            kwargs = d.value[3] if d.is_call else {}
            site = job_from_function(project, d.function, self.name, kind, triggers={"enqueue"})
            site.retry = retry_policy(kwargs, d.anchor, project)
            site.settings = {k: v for k, v in kwargs.items() if k in RETRY_KEYS}
            sites[d.function.qualname] = site
        self._with_options(project, sites)
        self._deployments(project, sites)
        return list(sites.values())

    def _with_options(self, project: Project, sites: dict[str, JobSite]) -> None:
        """`my_task.with_options(retries=3)`: the same function, retried as configured there."""
        for call in calls_named(project, ("with_options",), _reads_method_of_function):
            base = (call.name or "").rpartition(".")[0]
            site = sites.get(base)
            if site is None or "retries" not in call.event.kwargs:
                continue
            decorated = next((d for d in decorated_functions(project, self.name) if d.function.qualname == base
                              and d.name in FLOW_DECORATORS + TASK_DECORATORS), None)
            merged = dict(decorated.value[3]) if decorated is not None and decorated.is_call else {}
            merged.update(call.event.kwargs)
            candidate = retry_policy(merged, call.anchor, project)
            candidate.setting = f"with_options({describe(call.event.kwargs, RETRY_KEYS)})"
            if site.retry is None or candidate.retries.most_key() > site.retry.retries.most_key():
                site.retry = candidate

    def _deployments(self, project: Project, sites: dict[str, JobSite]) -> None:
        for call in calls_named(project, ("serve", "deploy", "to_deployment"), _reads_method_of_function):
            base = (call.name or "").rpartition(".")[0]
            site = sites.get(base)
            if site is not None and site.kind == "flow" and any(k in call.event.kwargs for k in SCHEDULE_KEYS):
                site.triggers.add("schedule")

    def find_registrations(self, project: Project) -> list[Registration]:
        return []


def _reads_method_of_function(project: Project, module, ev) -> bool:
    """`flow.serve(...)`, `task.with_options(...)`: a method of a function of the project."""
    return project.functions.get((project.canonical(ev.name) or "").rpartition(".")[0]) is not None


FRAMEWORK = Prefect()
