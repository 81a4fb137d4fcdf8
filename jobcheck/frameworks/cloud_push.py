"""Google Cloud's push deliveries to a request handler of the application, told by the headers
the handler reads, which only the deliverer sets: one that reads those of Cloud Tasks or App
Engine's push queues (`request.headers.get("X-CloudTasks-TaskRetryCount")`, `X-CloudTasks-TaskName`,
`X-AppEngine-TaskName`, Django's `request.META["HTTP_X_APPENGINE_QUEUENAME"]`) is a task that
queue delivers; one that reads those of Cloud Scheduler or App Engine cron (`X-CloudScheduler-JobName`,
`X-CloudScheduler-ScheduleTime`, `X-AppEngine-Cron`) is a periodic job. The handler reads them
itself, or a decorator of the application's that guards it does (`@cron_only` checking
`X-AppEngine-Cron` in its wrapper). A middleware that checks them on every request runs no job.

Retries: a push queue delivers again every attempt not answered with a 2xx, with exponential
backoff, up to the queue's `max_attempts`, which is set on the queue, not in the code (a count not
known here); so an exception in the handler, or a 5xx it returns, repeats the whole request.
Cloud Scheduler and App Engine cron retry only as the job's retry configuration says (none by
default): no retries read. Both deliver at least once.
"""

from __future__ import annotations

from ..analysis.delivery import AT_LEAST_ONCE, Delivery
from ..analysis.jobs import JobSite, RetryLimit
from ..analysis.names import canonical_in
from ..analysis.words import name_words
from ..analysis.program import deco_name
from ..analysis.project import Project
from .base import job_from_function, policy

QUEUE_HEADERS = frozenset(f"x-{service}-{field}" for service in ("cloudtasks", "appengine")
                          for field in ("taskname", "queuename", "taskretrycount", "taskexecutioncount", "tasketa",
                                        "taskpreviousresponse", "taskretryreason"))
SCHEDULER_HEADERS = frozenset({"x-appengine-cron", "x-cloudscheduler", "x-cloudscheduler-jobname",
                               "x-cloudscheduler-scheduletime"})


class CloudPush:
    name = "cloud_push"

    def find_jobs(self, project: Project) -> list[JobSite]:
        guards = _guarding_decorators(project)
        sites = []
        for qualname, fn in project.functions.items():
            module = project.function_module[qualname]
            if not project.the_applications(module) or _middleware(fn) \
                    or ("<locals>" in qualname and qualname.split(".<locals>.")[0] in guards):
                continue  # (a guarding decorator's wrapper: what it wraps is the job)
            headers = set(fn.header_names)
            for value, *_ in fn.decorators:
                if value[0] in ("name", "call"):
                    headers |= guards.get(canonical_in(project, module, deco_name(value)) or "", set())
            if headers & QUEUE_HEADERS:
                site = job_from_function(project, fn, self.name, "task", triggers={"enqueue"})
                site.retry = policy("a push queue delivers again each attempt not answered with a 2xx, up to the "
                                    "queue's max_attempts (set on the queue)", site.anchor,
                                    retries=RetryLimit.unknown_count("the queue's max_attempts"), on=None,
                                    backoff="exponential", from_default=True)
                sites.append(site)
            elif headers & SCHEDULER_HEADERS:
                sites.append(job_from_function(project, fn, self.name, "periodic", triggers={"schedule"}))
        return sites

    def find_registrations(self, project: Project) -> list:
        return []

    @staticmethod
    def delivery(project: Project, site: JobSite) -> Delivery | None:
        # Cloud Scheduler too is "intended for at-least-once delivery": rarely, one scheduled run is
        # requested twice (cloud.google.com/scheduler/docs/overview).
        if site.kind == "task":
            return Delivery(AT_LEAST_ONCE, "a push queue delivers again an attempt that did not answer 2xx")
        return Delivery(AT_LEAST_ONCE, "Cloud Scheduler delivers at least once: rarely, a run is requested twice")


def _guarding_decorators(project: Project) -> dict[str, set[str]]:
    """The application's decorators whose body, or the wrapper they define, reads a deliverer's
    header: {qualname: the headers read}."""
    out: dict[str, set[str]] = {}
    for qualname, fn in project.functions.items():
        outer = qualname.split(".<locals>.")[0]
        if outer != qualname and outer in project.functions and set(fn.header_names) & (QUEUE_HEADERS | SCHEDULER_HEADERS):
            out.setdefault(outer, set(project.functions[outer].header_names)).update(fn.header_names)
    return out


def _middleware(fn) -> bool:
    """A middleware's hook sees every request: reading a deliverer's header there (to let it in) runs no job."""
    owner = (fn.class_qualname or "").rpartition(".")[2]
    return "middleware" in name_words(owner) or "middleware" in name_words(fn.name)


FRAMEWORK = CloudPush()
