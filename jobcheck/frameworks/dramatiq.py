"""Dramatiq: `@dramatiq.actor` and `GenericActor`. Actors retry by default: the Retries
middleware gives every actor `max_retries=20` with exponential backoff (from 15 s) on any
exception; `max_retries=0` disables it; `retry_when` replaces the decision; `throws=(...)` lists
exceptions that are not retried. A `Retries(max_retries=N)` middleware the project builds changes
the default. Options given at the enqueue call (`actor.send_with_options(..., max_retries=3)`)
override the actor's for that message. `on_retry_exhausted=` / `on_failure=` name the actor that
sees exhaustion. `dramatiq.actor(fn)` / `dramatiq.actor(SendTask(), ...)` called rather than used
as a decorator makes an actor too: of the function, or of what the instance runs when called
(`frameworks/instances.py`).

A middleware's hooks run in the worker: around every message (`before_process_message`,
`after_process_message`, `after_skip_message`, `after_message_canceled`), as callbacks of each
message's processing, and as the worker boots or shuts down. Not the hooks of the code that
enqueues (`before_enqueue`, `after_enqueue`). A broker's consumer of the application's own
(`class PostgresConsumer(dramatiq.broker.Consumer)`) is polled by each worker's consumer thread for
as long as the worker runs: its `__next__` is a periodic job.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite, Registration, RetryLimit
from ..analysis.names import canonical_in
from ..analysis.program import calls_named, classes_where
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from ..analysis.values import lit, names
from .base import describe, job_from_function, matches, policy, retry_limit
from .instances import called_function

ACTOR_DECORATORS = ("dramatiq.actor", "dramatiq.actor.actor", "dramatiq.actor*", "django_dramatiq.actor")
ACTOR_BASES = ("dramatiq.GenericActor", "dramatiq.generic.GenericActor")
MIDDLEWARE_BASES = ("dramatiq.Middleware", "dramatiq.middleware.Middleware", "dramatiq.middleware.middleware.Middleware")
# Hooks a worker calls: {method: (kind, trigger)}.
MIDDLEWARE_HOOKS = {
    **{m: ("callback", "enqueue") for m in ("before_process_message", "after_process_message",
                                             "after_skip_message", "after_message_canceled")},
    **{m: ("background", "start") for m in ("before_worker_boot", "after_worker_boot")},
    **{m: ("background", "stop") for m in ("before_worker_shutdown", "after_worker_shutdown")},
}
# A broker's consumer: each worker's consumer thread calls `next(consumer)` for as long as the
# worker runs (taking the next message, waiting up to its timeout), a poll repeated for ever.
CONSUMER_BASES = ("dramatiq.broker.Consumer", "dramatiq.Consumer")
CONSUMER_HOOKS = {"__next__": ("periodic", "schedule")}
RETRIES_MIDDLEWARE = ("dramatiq.middleware.Retries", "dramatiq.middleware.retries.Retries")
RETRY_KEYS = ("max_retries", "min_backoff", "max_backoff", "retry_when", "throws")
HANDLER_KEYS = ("on_retry_exhausted", "on_failure")
DEFAULT_MAX_RETRIES = 20
DEFAULT_MIN_BACKOFF_S = 15.0


def actor_policy(kwargs: dict, anchor, defaults: dict | None = None, at_call: bool = False):
    defaults = defaults or {}
    limit = retry_limit(kwargs.get("max_retries"), retry_limit(defaults.get("max_retries"), RetryLimit.known(DEFAULT_MAX_RETRIES)))
    min_backoff = lit(kwargs.get("min_backoff", defaults.get("min_backoff")), DEFAULT_MIN_BACKOFF_S * 1000)
    written = describe(kwargs, RETRY_KEYS)
    configured = describe(defaults, RETRY_KEYS)
    if at_call:
        written += " (at the enqueue call)"
    elif not written:
        written = f"Retries middleware ({configured})" if configured else "Dramatiq's default: max_retries=20 with exponential backoff"
    handler = next((k for k in HANDLER_KEYS if k in kwargs), None)
    return policy(
        written,
        anchor,
        retries=limit,
        on=None,
        from_default=not any(k in kwargs for k in ("max_retries", "retry_when")) and "max_retries" not in defaults,
        backoff="exponential",
        delay=float(min_backoff) / 1000 if isinstance(min_backoff, (int, float)) else None,
        failure_handler=handler,
    )


class Dramatiq:
    name = "dramatiq"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return name.startswith(("periodiq.cron", "dramatiq_crontab.cron")) or matches(name, ACTOR_DECORATORS)

    def find_jobs(self, project: Project) -> list[JobSite]:
        return list(_actors(project).values()) + _middleware_hooks(project)

    def find_registrations(self, project: Project) -> list[Registration]:
        actors = _actors(project)
        defaults = _middleware_defaults(project)
        regs = []
        for site in calls_named(project, ("send_with_options",), _reads_send):
            name = canonical_in(project, site.module, site.event.name) or ""
            fn = project.function_for(name.rpartition(".")[0])
            if fn is None or fn.qualname not in actors:
                continue
            kwargs = site.event.kwargs
            retry = actor_policy(kwargs, site.anchor, defaults, at_call=True) if any(k in kwargs for k in RETRY_KEYS) else None
            regs.append(Registration(fn.qualname, self.name, "enqueue", site.anchor, retry=retry,
                                     settings={k: v for k, v in kwargs.items() if k in ("delay", "on_failure", "on_success")}))
        return regs


def _middleware_hooks(project: Project) -> list[JobSite]:
    """The hooks a middleware or a broker consumer of the application's own defines, which the
    worker runs."""
    out = []
    for bases, hooks in ((MIDDLEWARE_BASES, MIDDLEWARE_HOOKS), (CONSUMER_BASES, CONSUMER_HOOKS)):
        for cls in classes_where(project, lambda cls: any(m in cls.methods for m in hooks)
                                 and any(b in bases for b in project.class_bases(cls))):
            if not project.the_applications(project.module_of_class(cls)):
                continue
            for method, (kind, trigger) in hooks.items():
                fn = project.functions.get(f"{cls.qualname}.{method}")
                if method in cls.methods and fn is not None:
                    out.append(job_from_function(project, fn, "dramatiq", kind, triggers={trigger}))
    return out


def _middleware_defaults(project: Project) -> dict:
    for site in calls_named(project, ("Retries",), _reads_retries):
        return {k: v for k, v in site.event.kwargs.items() if k in RETRY_KEYS}
    return {}


def _actors(project: Project) -> dict[str, JobSite]:
    return project.once("dramatiq actors", lambda: _compute_actors(project))


def _compute_actors(project: Project) -> dict[str, JobSite]:
    defaults = _middleware_defaults(project)
    out: dict[str, JobSite] = {}
    periodic_names = set()
    for d in decorated_functions(project, "dramatiq"):
        name = canonical_in(project, d.module, d.value[1]) or ""
        if name.startswith(("periodiq.cron", "dramatiq_crontab.cron")):
            periodic_names.add(d.function.qualname)
            continue
        if not matches(name, ACTOR_DECORATORS):
            continue
        out[d.function.qualname] = _actor_site(project, d.function, d.value[3] if d.is_call else {}, d.anchor, defaults)
    for call in calls_named(project, ("actor",), _reads_actor_call):  # `send = dramatiq.actor(SendTask())`
        fn = called_function(project, call.module, call.event.args[0])
        if fn is not None and fn.qualname not in out:
            out[fn.qualname] = _actor_site(project, fn, call.event.kwargs, call.anchor, defaults)
    for qualname in periodic_names:
        if qualname in out:
            out[qualname].triggers.add("schedule")
            out[qualname].kind = "periodic"
    for cls in classes_where(project, lambda cls: "perform" in cls.methods
                            and any(matches(b, ACTOR_BASES) for b in project.class_bases(cls))):
        anchor = project.class_anchor(cls)
        meta = project.classes.get(f"{cls.qualname}.Meta")
        kwargs = {k: v[0] for k, v in meta.attrs.items()} if meta is not None else {}
        if meta is not None and lit(kwargs.get("abstract"), False):
            continue
        out[f"{cls.qualname}.perform"] = JobSite(
            function=f"{cls.qualname}.perform", framework="dramatiq", kind="actor", path=anchor.path,
            anchor=anchor, display=cls.qualname, doc_owner=cls.qualname, triggers={"enqueue"},
            retry=actor_policy(kwargs, anchor, defaults),
        )
    return out


def _actor_site(project: Project, fn, kwargs: dict, anchor, defaults: dict) -> JobSite:
    site = job_from_function(project, fn, "dramatiq", "actor", triggers={"enqueue"})
    site.retry = actor_policy(kwargs, anchor, defaults)
    if "periodic" in kwargs:
        site.triggers.add("schedule")
        site.kind = "periodic"
    site.settings = {k: v for k, v in kwargs.items() if k in ("queue_name", "priority", "time_limit", "actor_name", "periodic", *HANDLER_KEYS)}
    if names(kwargs.get("throws")):
        site.settings["throws"] = kwargs["throws"]
    return site


def _reads_actor_call(project: Project, module, ev) -> bool:
    return bool(ev.args) and matches(canonical_in(project, module, ev.name) or "", ACTOR_DECORATORS)


def _reads_send(project: Project, module, ev) -> bool:
    return project.function_for((canonical_in(project, module, ev.name) or "").rpartition(".")[0]) is not None


def _reads_retries(project: Project, module, ev) -> bool:
    return canonical_in(project, module, ev.name) in RETRIES_MIDDLEWARE


FRAMEWORK = Dramatiq()
