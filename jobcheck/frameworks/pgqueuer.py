"""PgQueuer: `@pgq.entrypoint("name", ...)` handlers on a `PgQueuer` or `QueueManager` (kind
"entrypoint", run when a job of that name is enqueued: `Queries(driver).enqueue("name", ...)`,
which takes no retry option), and `@pgq.schedule("name", "cron")` recurring tasks on a `PgQueuer`
or `SchedulerManager` (kind "periodic"), wherever the object is built (often inside a factory
function the CLI calls).

Retries: none by default: a handler that raises is logged as failed (or kept as `failed` with
`mark_as_failed=True`) and not run again. A handler is re-queued when:
- it raises `RetryRequested(delay=...)` (`pgqueuer.errors`), each time it does, with no limit:
  a retry repeats what ran before the `raise`;
- its `executor_factory=` builds a `DatabaseRetryEntrypointExecutor` (any exception re-queues the
  job, up to `max_attempts` runs, default 5, with exponential backoff from `initial_delay`, 1 s)
  or a `RetryWithBackoffEntrypointExecutor` (the handler is run again in the same process on any
  exception, up to `max_attempts` runs, default 5, from 0.1 s, doubling). The factory is read as a
  lambda (the executor built inside it), a function of the project that builds one, the executor
  class itself, or `functools.partial(Executor, ...)`.
A schedule is not retried.
"""

from __future__ import annotations

from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in, target
from ..analysis.program import calls_named
from ..analysis.decorators import Decorated, decorated_functions
from ..analysis.project import Project
from ..analysis.values import call_args, call_kwargs, call_name
from .base import describe, job_from_function, matches, policy, retry_limit
from .durations import seconds

QUEUE_MANAGERS = (
    "pgqueuer.PgQueuer()", "pgqueuer.applications.PgQueuer()", "pgqueuer.core.applications.PgQueuer()",
    "pgqueuer.QueueManager()", "pgqueuer.qm.QueueManager()", "pgqueuer.core.qm.QueueManager()",
)
SCHEDULERS = (
    "pgqueuer.PgQueuer()", "pgqueuer.applications.PgQueuer()", "pgqueuer.core.applications.PgQueuer()",
    "pgqueuer.SchedulerManager()", "pgqueuer.sm.SchedulerManager()", "pgqueuer.core.sm.SchedulerManager()",
)
ENTRYPOINTS = tuple(f"{m}.entrypoint" for m in QUEUE_MANAGERS)
SCHEDULES = tuple(f"{m}.schedule" for m in SCHEDULERS)
# Retrying executors, by class name under `pgqueuer.` (`pgqueuer.executors`, `pgqueuer.core.executors`):
# (retried where, default max_attempts, default initial delay in seconds).
RETRYING_EXECUTORS = {
    "DatabaseRetryEntrypointExecutor": ("re-queued", 5, 1.0),
    "RetryWithBackoffEntrypointExecutor": ("in process", 5, 0.1),
}
SETTINGS = ("concurrency_limit", "requests_per_second", "retry_timer", "serialized_dispatch", "mark_as_failed",
            "executor_factory")


class PgQueuer:
    name = "pgqueuer"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return matches(name, ENTRYPOINTS + SCHEDULES)

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        for d in decorated_functions(project, self.name):
            name = canonical_in(project, d.module, d.value[1]) or d.name
            if d.function.qualname in sites or name not in ENTRYPOINTS + SCHEDULES:
                continue
            kwargs = d.value[3] if d.is_call else {}
            if name in SCHEDULES:
                site = job_from_function(project, d.function, self.name, "periodic", triggers={"schedule"})
                site.retry = policy("a PgQueuer schedule is not retried", d.anchor, retries=RetryLimit.known(0), on=None,
                                    from_default=True, backoff="none")
            else:
                site = job_from_function(project, d.function, self.name, "entrypoint", triggers={"enqueue"})
                site.retry = _entrypoint_policy(project, d, kwargs)
            site.settings = {k: v for k, v in kwargs.items() if k in SETTINGS}
            if d.is_call and d.value[2]:
                site.settings["name"] = d.value[2][0]
            sites[d.function.qualname] = site
        return list(sites.values())

    def find_registrations(self, project: Project) -> list[Registration]:
        return []  # `Queries.enqueue("name", payload, ...)` takes no retry option


def _entrypoint_policy(project: Project, d: Decorated, kwargs: dict) -> RetryPolicy:
    found = _executor(project, d, kwargs.get("executor_factory"))
    if found is None:
        return policy("no retrying executor; only `raise RetryRequested` retries", d.anchor, retries=RetryLimit.unlimited(), on=(),
                      explicit=True, from_default=True)
    executor, options, anchor = found
    where, default_attempts, default_delay = RETRYING_EXECUTORS[executor]
    limit = retry_limit(options.get("max_attempts"), RetryLimit.known(default_attempts - 1) if default_attempts else RetryLimit.unlimited(),
                        unlimited=(0, None), attempts=True)
    written = describe(options, ("max_attempts", "initial_delay", "backoff_multiplier"))
    delay = seconds(options["initial_delay"]) if "initial_delay" in options else default_delay
    return policy(
        f"{executor}({written}) ({where})" if written else f"{executor} (max_attempts={default_attempts}, {where})",
        anchor,
        retries=limit,
        on=None,  # any exception (RetryRequested too)
        backoff="exponential",
        delay=delay,
    )


def _executor(project: Project, d: Decorated, factory: list | None) -> tuple[str, dict, Anchor] | None:
    """(executor class name, its keywords, where they are written) for a retrying executor
    built by an entry point's `executor_factory`, or None."""
    if not factory:
        return None
    if factory[0] == "lambda":
        # The lambda's calls are summarised in the function around the decorator: the one written inside its span.
        a = d.anchor
        for site in _executor_calls(project):
            ev = site.event
            if site.module is d.module and (a.line, a.col) <= (ev.line, ev.col) and (ev.end_line, ev.end_col) <= (a.end_line, a.end_col):
                return _retrying(site.name), ev.kwargs, site.anchor
        return None
    name = canonical_in(project, d.module, call_name(factory) if factory[0] == "call" else factory[1]) or ""
    if factory[0] == "call" and name == "functools.partial" and call_args(factory):
        inner = canonical_in(project, d.module, call_args(factory)[0][1] if call_args(factory)[0][0] == "name" else None)
        return (_retrying(inner), call_kwargs(factory), d.anchor) if _retrying(inner) else None
    if _retrying(name):
        return _retrying(name), {}, d.anchor
    builder = project.functions.get(target(project, d.module, factory) or "")
    if builder is not None:
        for site in _executor_calls(project):
            if site.function is builder:
                return _retrying(site.name), site.event.kwargs, site.anchor
    return None


def _retrying(name: str | None) -> str | None:
    """The class name of a retrying PgQueuer executor (`pgqueuer.executors.DatabaseRetryEntrypointExecutor`)."""
    name = name or ""
    last = name.rpartition(".")[2]
    return last if name.startswith("pgqueuer.") and last in RETRYING_EXECUTORS else None


def _executor_calls(project: Project) -> list:
    return project.once("pgqueuer executors", lambda: [
        site for site in calls_named(project, tuple(RETRYING_EXECUTORS)) if _retrying(site.name)])


FRAMEWORK = PgQueuer()
