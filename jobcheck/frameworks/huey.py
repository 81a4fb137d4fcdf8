"""Huey: `@huey.task`, `@huey.periodic_task`, `@huey.db_task`, `@huey.db_periodic_task` (and the
djhuey module-level forms). Tasks do not retry unless `retries=N`; `retry_delay` defaults to 0."""

from __future__ import annotations

from ..jobs import JobSite, Registration
from ..project import Project, decorated_functions
from .base import describe, int_or_none, job_from_function, policy
from .values import lit

TASK_KINDS = {"task": "task", "db_task": "task", "periodic_task": "periodic", "db_periodic_task": "periodic", "context_task": "task"}


def _is_huey(name: str) -> bool:
    return name.startswith("huey.") and name.rpartition(".")[2] in TASK_KINDS


class Huey:
    name = "huey"

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []
        for d in decorated_functions(project):
            if not _is_huey(d.name):
                continue
            kwargs = d.value[3] if d.is_call else {}
            kind = TASK_KINDS[d.name.rpartition(".")[2]]
            site = job_from_function(project, d.function, self.name, kind, triggers={"schedule" if kind == "periodic" else "enqueue"})
            retries = int_or_none(kwargs.get("retries"), 0)
            delay = lit(kwargs.get("retry_delay"), 0)
            site.retry = policy(
                describe(kwargs, ("retries", "retry_delay")) or "raise RetryTask",
                d.anchor,
                max_retries=retries,
                on=None if retries else (),
                backoff="constant" if delay else "none",
                delay=float(delay) if isinstance(delay, (int, float)) else None,
            )
            sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        return []
