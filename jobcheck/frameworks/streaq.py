"""streaQ: `@worker.task(...)` and `@worker.cron("tab", ...)` on a `streaq.Worker` (kind
"task" / "periodic"). A task runs when enqueued (`await task.enqueue(...)`, `.start(delay=...)`),
and nothing given there changes its retries.

Retries: only a raised `StreaqRetry` (`from streaq import StreaqRetry`; older releases define it
in `streaq.task`, `streaq.types`, `streaq.utils` or `streaq.worker`; it is matched by its name)
runs a task again, after its `delay` (default: the number of tries squared, in seconds, recorded
as backoff "quadratic"), up to `max_tries` runs (default 3; `None` for no limit). Any other
exception fails the task. So a retry repeats what ran before the `raise StreaqRetry`, and nothing
when the task never raises it. (A task whose worker dies mid-run is picked up again by another
worker: delivery is at-least-once, whatever the retries.)
"""

from __future__ import annotations

from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from .base import describe, job_from_function, kwargs_of, matches, policy, retry_limit

WORKERS = ("streaq.Worker()", "streaq.worker.Worker()")
TASK_DECORATORS = tuple(f"{w}.task" for w in WORKERS)
CRON_DECORATORS = tuple(f"{w}.cron" for w in WORKERS)
# A raised StreaqRetry is matched by its last name, wherever it was imported from.
RETRY_EXCEPTION = "streaq.task.StreaqRetry"
DEFAULT_MAX_TRIES = 3
SETTINGS = ("max_tries", "timeout", "ttl", "unique", "name", "silent", "run_at_startup")


class Streaq:
    name = "streaq"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return matches(name, TASK_DECORATORS + CRON_DECORATORS)

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        for d in decorated_functions(project, self.name):
            name = canonical_in(project, d.module, d.value[1]) or d.name
            if d.function.qualname in sites or name not in TASK_DECORATORS + CRON_DECORATORS:
                continue
            kwargs = kwargs_of(d)
            cron = name in CRON_DECORATORS
            site = job_from_function(project, d.function, self.name, "periodic" if cron else "task",
                                     triggers={"schedule"} if cron else {"enqueue"})
            site.retry = retry_policy(kwargs, d.anchor)
            site.settings = {k: v for k, v in kwargs.items() if k in SETTINGS}
            sites[d.function.qualname] = site
        return list(sites.values())

    def find_registrations(self, project: Project) -> list[Registration]:
        return []  # `enqueue(...)` / `.start(delay=...)` take no retry option


def retry_policy(kwargs: dict, anchor: Anchor) -> RetryPolicy:
    limit = retry_limit(kwargs.get("max_tries"), RetryLimit.known(DEFAULT_MAX_TRIES - 1), unlimited=(None,), attempts=True)
    written = describe(kwargs, ("max_tries",)) or f"max_tries={DEFAULT_MAX_TRIES} (default)"
    if limit.count == 0:
        return policy(written, anchor, retries=RetryLimit.known(0), on=(), explicit=True, from_default=False, backoff="none")
    # The exception is what retries, wherever it is raised: a retry repeats what ran before it.
    return policy(f"{written}; retried on `raise StreaqRetry`", anchor, retries=limit,
                  on=(RETRY_EXCEPTION,), explicit=True, from_default="max_tries" not in kwargs,
                  backoff="quadratic")


FRAMEWORK = Streaq()
