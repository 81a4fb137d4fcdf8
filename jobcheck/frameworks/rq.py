"""RQ, rq-scheduler and django-rq: `@job`, `queue.enqueue(f, ..., retry=Retry(max=3))`,
`enqueue_call`, `enqueue_in/at`, `Queue.prepare_data(f)` for `enqueue_many`, `Job.create(f)`,
`scheduler.cron/schedule`, RQ's own `cron.register(f, ...)`, `django_rq.enqueue(f)`; targets
given as functions, bound methods, `partial(f, ...)` or dotted strings, in any module.

RQ does not retry unless a `Retry` is given (on the decorator or at the enqueue call); a job
whose worker dies is moved to the failed registry, not run again. `on_failure=` (a function or
`Callback(f)`) is the failure handler; it and `on_success=` run in the worker after the job, and
are jobs of their own (kind "callback"), as is a `Worker` subclass's `run_maintenance_tasks`,
which the worker runs every `maintenance_interval`.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in, forwarded, target
from ..analysis.program import CallSite, calls_named, classes_where
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from ..analysis.values import call_args, call_kwargs, call_name, lit, render
from .base import job_from_function, matches, policy, retry_limit

JOB_DECORATORS = ("rq.decorators.job", "rq.job", "flask_rq2.RQ().job", "django_rq.job", "django_rq.decorators.job")
RQ_PREFIXES = ("rq.", "rq_scheduler.", "django_rq.", "flask_rq2.")
WORKER_BASES = ("rq.Worker", "rq.worker.Worker", "rq.worker.SimpleWorker", "rq.SimpleWorker")
# method -> (position of the target among positional args, keyword names for the target)
ENQUEUE = {
    "enqueue": (0, ("f", "func")),
    "enqueue_call": (0, ("func",)),
    "enqueue_in": (1, ("func", "f")),
    "enqueue_at": (1, ("func", "f")),
    "prepare_data": (0, ("func",)),
    "create": (0, ("func",)),
    "cron": (1, ("func",)),
    "schedule": (1, ("func",)),
    "register": (0, ("func",)),
}
SCHEDULED = ("cron", "schedule", "enqueue_in", "enqueue_at", "register")
SETTINGS = ("job_timeout", "result_ttl", "failure_ttl", "job_id", "at_front", "depends_on", "interval", "repeat",
            "cron", "cron_string", "queue_name", "on_success")


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
        # A count in a name or a parameter is bounded, count unknown; rq's own default is 1.
        f"retry={render(value)}", anchor, retries=retry_limit(max_value, RetryLimit.known(1), unlimited=()), on=None, backoff=backoff,
        delay=float(iv[0] if isinstance(iv, tuple) and iv else iv) if isinstance(iv, (int, float, tuple)) and iv != () else None,
    )


def is_rq_retry(project: Project, module, value) -> bool:
    name = canonical_in(project, module, call_name(value)) or ""
    return name.startswith(RQ_PREFIXES) and name.endswith(".Retry")


class RQ:
    name = "rq"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return matches(name, JOB_DECORATORS)

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []
        for d in decorated_functions(project, self.name):
            name = canonical_in(project, d.module, d.value[1]) or ""
            if not matches(name, JOB_DECORATORS):
                continue
            kwargs = d.value[3] if d.is_call else {}
            site = job_from_function(project, d.function, self.name, "task", triggers={"enqueue"})
            site.retry = retry_from(project.deref(kwargs.get("retry")), d.anchor)
            if "on_failure" in kwargs and site.retry is not None:
                site.retry.failure_handler = "on_failure"
            site.settings = {k: v for k, v in kwargs.items() if k in SETTINGS}
            if d.is_call and d.value[2]:  # `@job("default")`; django-rq also takes a bare `@job`
                site.settings["queue"] = d.value[2][0]
            sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        regs = []
        for site in calls_named(project, tuple(ENQUEUE), _reads_enqueue):
            name = canonical_in(project, site.module, site.event.name) or ""
            if not _is_rq_call(project, site, name):
                continue
            position, keywords = ENQUEUE[site.event.attr]
            ev = site.event
            value = next((ev.kwargs[k] for k in keywords if k in ev.kwargs), None)
            if value is None and len(ev.args) > position:
                value = ev.args[position]
            qualname = target(project, site.module, value)
            forward = None if qualname else forwarded(site, value)
            if not qualname and not forward:
                continue
            retry = retry_from(project.deref(ev.kwargs.get("retry")), site.anchor)
            if retry is not None and "on_failure" in ev.kwargs:
                retry.failure_handler = "on_failure"
            trigger = "schedule" if ev.attr in SCHEDULED else "enqueue"
            periodic = ev.attr in ("cron", "register") or (ev.attr == "schedule" and ("interval" in ev.kwargs or "cron" in ev.kwargs))
            settings = {k: v for k, v in ev.kwargs.items() if k in SETTINGS}
            if ev.attr == "cron" and ev.args and "cron_string" not in settings:
                settings["cron_string"] = ev.args[0]
            regs.append(Registration(qualname or "", self.name, trigger, site.anchor, retry=retry,
                                     kind="periodic" if periodic else "task", settings=settings, forward=forward))
            regs.extend(callbacks(project, site, site.event.kwargs, self.name))
        regs.extend(_worker_maintenance(project, self.name))
        return regs


def callbacks(project: Project, site: CallSite, kwargs: dict, framework: str) -> list[Registration]:
    """`on_failure=report` / `on_success=Callback(record)` among an enqueue's keyword arguments
    (`kwargs`: the call's own, or those a wrapper hands RQ, CKAN's `rq_kwargs={...}`): the worker
    runs them after the job, in the background, once (a failing callback is logged, not retried)."""
    out = []
    for key in ("on_failure", "on_success", "on_stopped"):
        value = kwargs.get(key)
        if value and value[0] == "call" and (call_name(value) or "").endswith("Callback") and call_args(value):
            value = call_args(value)[0]
        found = target(project, site.module, value)
        if found:
            out.append(Registration(found, framework, "enqueue", site.anchor, kind="callback"))
    return out


def _worker_maintenance(project: Project, framework: str) -> list[Registration]:
    """A `rq.Worker` subclass's `run_maintenance_tasks`: the worker runs it every
    `maintenance_interval` (10 minutes by default) between jobs."""
    def wanted(cls) -> bool:
        return "run_maintenance_tasks" in cls.methods and any(b in WORKER_BASES for b in project.class_bases(cls))
    return [Registration(f"{cls.qualname}.run_maintenance_tasks", framework, "schedule", project.class_anchor(cls),
                         kind="periodic") for cls in classes_where(project, wanted)]


def _is_rq_call(project: Project, site: CallSite, name: str) -> bool:
    if not _rq_call_name(site.event.attr, name):
        return False
    if name.startswith(RQ_PREFIXES):
        return True
    # `get_queue("default").enqueue(...)` through an application helper, in a module that uses RQ.
    return any(v.startswith(RQ_PREFIXES) or v in ("rq", "django_rq") for v in site.module.imports.values())


def _rq_call_name(attr: str, name: str) -> bool:
    """Can a call of `attr` resolved to `name` be RQ's (the name alone)?"""
    if attr == "create":
        return name in ("rq.job.Job.create", "rq.Job.create")
    if attr == "register":
        return name.startswith("rq.cron")
    if attr == "prepare_data" or name.startswith(RQ_PREFIXES):
        return name.startswith(RQ_PREFIXES)
    if attr == "enqueue_call" and not name:
        return True  # RQ's own word, on a queue of unknown type (`view.queue.enqueue_call(func=f)`)
    return attr in ("enqueue", "enqueue_call", "enqueue_in", "enqueue_at") and ("Queue()" in name or "get_queue()" in name)


def _reads_enqueue(project: Project, module, ev) -> bool:
    return _rq_call_name(ev.attr, canonical_in(project, module, ev.name) or "")


FRAMEWORK = RQ()
