"""RQ and rq-scheduler: `@job`, `queue.enqueue(f, ..., retry=Retry(max=3))`, `enqueue_in/at`,
`scheduler.cron/schedule`, targets given as functions or dotted strings.

RQ does not retry unless a `Retry` is given (on the decorator or at the enqueue call).
"""

from __future__ import annotations

from ..jobs import JobSite, Registration, RetryPolicy
from ..project import CallSite, Project, calls_named, decorated_functions
from .base import int_or_none, job_from_function, matches, policy
from .values import call_args, call_kwargs, call_name, lit, render

JOB_DECORATORS = ("rq.decorators.job", "rq.job", "flask_rq2.RQ().job", "django_rq.job", "django_rq.decorators.job")
RQ_PREFIXES = ("rq.", "rq_scheduler.", "django_rq.", "flask_rq2.", "redis_queue")
# method -> (position of the target among positional args, keyword names for the target)
ENQUEUE = {
    "enqueue": (0, ("f", "func")),
    "enqueue_call": (0, ("func",)),
    "enqueue_in": (1, ("func", "f")),
    "enqueue_at": (1, ("func", "f")),
    "cron": (1, ("func",)),
    "schedule": (1, ("func",)),
}
SCHEDULED = ("cron", "schedule", "enqueue_in", "enqueue_at")


def retry_from(value, anchor) -> RetryPolicy | None:
    """`Retry(max=3, interval=[10, 30, 60])` as a policy."""
    name = call_name(value) or ""
    if not name.endswith("Retry"):
        return None
    kwargs = call_kwargs(value)
    args = call_args(value)
    max_value = kwargs.get("max") or (args[0] if args else None)
    interval = kwargs.get("interval") or (args[1] if len(args) > 1 else None)
    iv = lit(interval, None)
    if isinstance(iv, tuple) and len(iv) > 1:
        backoff = "exponential" if list(iv) == sorted(iv) and iv[-1] > iv[0] else "constant"
    elif interval is None or iv == 0:
        backoff = "none"
    else:
        backoff = "constant"
    return policy(
        f"retry={render(value)}", anchor, max_retries=int_or_none(max_value, 1), on=None, backoff=backoff,
        delay=float(iv[0] if isinstance(iv, tuple) and iv else iv) if isinstance(iv, (int, float, tuple)) and iv != () else None,
    )


class RQ:
    name = "rq"

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []
        for d in decorated_functions(project):
            if not matches(d.name, JOB_DECORATORS):
                continue
            kwargs = d.value[3] if d.is_call else {}
            site = job_from_function(project, d.function, self.name, "task", triggers={"enqueue"})
            site.retry = retry_from(kwargs.get("retry"), d.anchor)
            if "on_failure" in kwargs and site.retry is not None:
                site.retry.failure_handler = "on_failure"
            sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        regs = []
        for site in calls_named(project, tuple(ENQUEUE)):
            if not (site.name or "").startswith(RQ_PREFIXES) and not _is_queue(site):
                continue
            position, keywords = ENQUEUE[site.event.attr]
            ev = site.event
            value = next((ev.kwargs[k] for k in keywords if k in ev.kwargs), None)
            if value is None and len(ev.args) > position:
                value = ev.args[position]
            target = project.resolve_target(value, site.module)
            if not target:
                continue
            retry = retry_from(ev.kwargs.get("retry"), site.anchor)
            if retry is not None and "on_failure" in ev.kwargs:
                retry.failure_handler = "on_failure"
            trigger = "schedule" if ev.attr in SCHEDULED else "enqueue"
            regs.append(Registration(target, self.name, trigger, site.anchor, retry=retry))
        return regs


def _is_queue(site: CallSite) -> bool:
    """`get_queue("default").enqueue(...)` from django_rq and friends."""
    name = site.name or ""
    return "Queue()" in name or "Scheduler()" in name or "get_queue()" in name or "get_scheduler()" in name
