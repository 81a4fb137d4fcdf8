"""taskiq: `@broker.task`, `@broker.task("name", **labels)`, `broker.register_task(f, ...)`, on
any taskiq broker (`InMemoryBroker()`, `taskiq_redis.ListQueueBroker(...)`, ... possibly with
`.with_result_backend(...)` / `.with_middlewares(...)` chained), defined in any module.
A `schedule=[...]` label makes it periodic (run by `TaskiqScheduler` with `LabelScheduleSource`).

Retries come from a retry middleware on the broker — `SimpleRetryMiddleware(default_retry_count=3)`
or `SmartRetryMiddleware(...)` in `.with_middlewares(...)`, `.add_middlewares(...)` or
`middlewares=[...]` — and apply to a task whose `retry_on_error` label is true (or to every task
with `default_retry_label=True`); `max_retries` overrides the count. Labels can also be given at
the enqueue call: `task.kicker().with_labels(retry_on_error=True).kiq(...)`. A `retry_on_error`
label with no retry middleware configures nothing.
"""

from __future__ import annotations

from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in, target
from ..analysis.program import calls_named
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from ..analysis.values import lit, names, render
from .base import job_from_function, policy, retry_limit

RETRY_MIDDLEWARES = ("SimpleRetryMiddleware", "SmartRetryMiddleware")
_LABEL_SETTINGS = ("task_name", "retry_on_error", "max_retries", "schedule", "timeout", "priority", "delay")


def is_broker(project: Project, name: str | None) -> bool:
    """A taskiq broker instance: `taskiq.InMemoryBroker()`, `taskiq_redis.ListQueueBroker().with_middlewares()`,
    or an instance of the project's own subclass of a taskiq broker."""
    if not name or not name.endswith(")"):
        return False
    if name.startswith("taskiq") and "Broker(" in name:
        return True
    cls = project.classes.get(name.partition("(")[0])
    return cls is not None and any(b.startswith("taskiq") for b in project.class_bases(cls))


class Taskiq:
    name = "taskiq"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return name.rpartition(".")[2] == "task"  # on a broker (`is_broker`)

    def find_jobs(self, project: Project) -> list[JobSite]:
        middleware = _middleware(project)
        sites = []
        for d in decorated_functions(project, self.name):
            name = canonical_in(project, d.module, d.value[1]) or ""
            broker, _, attr = name.rpartition(".")
            if attr != "task" or not is_broker(project, broker):
                continue
            labels = dict(d.value[3]) if d.is_call else {}
            if d.is_call and d.value[2] and lit(d.value[2][0]) is not None:
                labels.setdefault("task_name", d.value[2][0])
            periodic = "schedule" in labels
            site = job_from_function(project, d.function, self.name, "periodic" if periodic else "task",
                                     triggers={"schedule", "enqueue"} if periodic else {"enqueue"})
            site.retry = _policy(labels, middleware, d.anchor)
            site.settings = {k: v for k, v in labels.items() if k in _LABEL_SETTINGS}
            sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        middleware = _middleware(project)
        regs = []
        for site in calls_named(project, ("register_task",), _reads_register):
            name = canonical_in(project, site.module, site.event.name) or ""
            if not is_broker(project, name.rpartition(".")[0]):
                continue
            ev = site.event
            qualname = target(project, site.module, ev.kwargs.get("func") or (ev.args[0] if ev.args else None))
            if qualname:
                labels = {k: v for k, v in ev.kwargs.items() if k != "func"}
                periodic = "schedule" in labels
                regs.append(Registration(qualname, self.name, "schedule" if periodic else "enqueue", site.anchor,
                                         retry=_policy(labels, middleware, site.anchor), kind="periodic" if periodic else "task",
                                         settings={k: v for k, v in labels.items() if k in _LABEL_SETTINGS}))
        jobs = {site.function for site in self.find_jobs(project)} | {r.target for r in regs}
        for site in calls_named(project, ("with_labels",), _reads_labels):
            name = canonical_in(project, site.module, site.event.name) or ""
            base = name.removesuffix(".kicker().with_labels")
            if base == name or base not in jobs:
                continue
            labels = dict(site.event.kwargs)
            retry = _policy(labels, middleware, site.anchor)
            if retry is not None:
                regs.append(Registration(base, self.name, "enqueue", site.anchor, retry=retry,
                                         settings={k: v for k, v in labels.items() if k in _LABEL_SETTINGS}))
        return regs


def _middleware(project: Project) -> tuple[str, dict, Anchor] | None:
    """The retry middleware the project constructs for its broker: (class name, keywords, where)."""
    for site in calls_named(project, RETRY_MIDDLEWARES, _reads_middleware):
        return (site.event.attr, dict(site.event.kwargs), site.anchor)
    return None


def _policy(labels: dict, middleware, anchor: Anchor) -> RetryPolicy | None:
    if middleware is None:
        return None
    kind, mw_kwargs, mw_anchor = middleware
    on_error = lit(labels.get("retry_on_error"), None)
    if on_error is None:
        on_error = lit(mw_kwargs.get("default_retry_label"), False)
    if not on_error:
        return None
    limit = retry_limit(labels.get("max_retries"), retry_limit(mw_kwargs.get("default_retry_count"), RetryLimit.known(3), unlimited=()), unlimited=())
    smart = kind == "SmartRetryMiddleware"
    exponent = lit(mw_kwargs.get("use_delay_exponent"), False)
    delay = lit(mw_kwargs.get("default_delay"), 5) if smart else None
    written = ", ".join(f"{k}={render(labels[k])}" for k in ("retry_on_error", "max_retries") if k in labels)
    written = written or f"default_retry_label={render(mw_kwargs.get('default_retry_label'))}"
    types = mw_kwargs.get("types_of_exceptions")
    return policy(
        f"{written} with {kind}({', '.join(f'{k}={render(v)}' for k, v in mw_kwargs.items())})",
        anchor if "retry_on_error" in labels else mw_anchor,
        retries=limit,
        on=names(types) if types else None,
        from_default="max_retries" not in labels and "default_retry_count" not in mw_kwargs,
        backoff="exponential" if smart and exponent else ("constant" if smart else "none"),
        delay=float(delay) if isinstance(delay, (int, float)) else None,
    )


def _reads_labels(project: Project, module, ev) -> bool:
    return (canonical_in(project, module, ev.name) or "").endswith(".kicker().with_labels")


def _reads_middleware(project: Project, module, ev) -> bool:
    return (canonical_in(project, module, ev.name) or "").startswith("taskiq")


def _reads_register(project: Project, module, ev) -> bool:
    """`broker.register_task(...)` on an instance (whether it is a broker is `is_broker`'s to say)."""
    return (canonical_in(project, module, ev.name) or "").rpartition(".")[0].endswith(")")


FRAMEWORK = Taskiq()
