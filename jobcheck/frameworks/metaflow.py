"""Metaflow: each `@step` method of a `FlowSpec` subclass is a task (kind "step") that Metaflow's
runtime, or the orchestrator the flow is deployed to (Argo Workflows, Step Functions, Airflow,
Kubernetes), runs in a process of its own. A flow class under `@schedule(...)` (`hourly`, `daily`,
`weekly`, `cron=`) runs on that schedule once deployed; the others run when someone or something
starts them.

Retries: `@retry` on a step runs it again after any exception, `times` times (default 3), waiting
`minutes_between_retries` minutes (default 2; 0: straight away). A step without `@retry` is not
retried (`--with retry` on the command line adds it to every step: nothing here shows it). `@catch`
on a step takes the last failure into an artifact (`var=`) and lets the flow go on: who sees
exhaustion is whoever reads that artifact.
"""

from __future__ import annotations

from ..analysis.decorators import decorated_functions
from ..analysis.jobs import JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.program import deco_name
from ..analysis.project import Project
from ..analysis.values import lit
from .base import describe, job_from_function, policy, retry_limit

STEP = ("metaflow.step",)
RETRY = ("metaflow.retry",)
CATCH = ("metaflow.catch",)
SCHEDULE = ("metaflow.schedule",)
FLOW_BASES = ("metaflow.FlowSpec", "metaflow.flowspec.FlowSpec")
RETRY_KEYS = ("times", "minutes_between_retries")
DEFAULT_TIMES = 3
DEFAULT_MINUTES = 2


def retry_policy(project: Project, kwargs: dict, anchor, caught: bool) -> RetryPolicy:
    """`@retry(times=..., minutes_between_retries=...)`, written or Metaflow's defaults."""
    limit = retry_limit(project.deref(kwargs.get("times")), RetryLimit.known(DEFAULT_TIMES), unlimited=())
    minutes = lit(project.deref(kwargs.get("minutes_between_retries")), None) if "minutes_between_retries" in kwargs \
        else DEFAULT_MINUTES
    if isinstance(minutes, (int, float)) and not isinstance(minutes, bool):
        backoff, delay = ("constant" if minutes else "none"), float(minutes) * 60
    else:
        backoff, delay = "constant", None  # a setting or a computed value: a wait, length not known here
    written = describe(kwargs, RETRY_KEYS)
    return policy(
        f"@retry({written})" if written else
        f"@retry (Metaflow's defaults: times={DEFAULT_TIMES}, minutes_between_retries={DEFAULT_MINUTES})",
        anchor,
        retries=limit,
        on=None,  # any exception
        from_default=not written,
        backoff=backoff,
        delay=delay,
        failure_handler="@catch" if caught else None,
    )


class Metaflow:
    name = "metaflow"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return name in (*STEP, *RETRY, *CATCH)

    def find_jobs(self, project: Project) -> list[JobSite]:
        decorated = decorated_functions(project, self.name)
        retries = {d.function.qualname: d for d in decorated if d.name in RETRY}
        caught = {d.function.qualname for d in decorated if d.name in CATCH}
        sites = []
        for d in decorated:
            fn = d.function
            cls = project.classes.get(fn.class_qualname or "")
            if d.name not in STEP or cls is None or not any(b.removesuffix("()") in FLOW_BASES
                                                            for b in project.class_bases(cls)):
                continue
            scheduled = any(project.canonical(deco_name(value[0])) in SCHEDULE for value in cls.decorators)
            site = job_from_function(project, fn, self.name, "step", triggers={"schedule" if scheduled else "enqueue"})
            retried = retries.get(fn.qualname)
            if retried is not None:
                site.retry = retry_policy(project, retried.value[3] if retried.is_call else {}, retried.anchor,
                                          fn.qualname in caught)
                site.settings = {k: v for k, v in (retried.value[3] if retried.is_call else {}).items() if k in RETRY_KEYS}
            sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        return []


FRAMEWORK = Metaflow()
