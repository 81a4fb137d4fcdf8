"""Celery: `@app.task`, `@shared_task`, `app.task(func)`, `Task` subclasses; beat schedules
(`beat_schedule`, `CELERYBEAT_SCHEDULE`, `CELERY_BEAT_SCHEDULE`, in modules, config classes,
`app.conf.update(beat_schedule=...)`, entries naming the task by string, by `task.name` or as a
signature `task.s(...)`), `add_periodic_task`; enqueue calls (`delay`, `apply_async`, `s`/`si`/
`signature`, `app.send_task("name")`). A beat scheduler of the application's own runs its `tick`
again and again.

Retries: `autoretry_for` (exceptions retried automatically), `max_retries` (default 3, `None`
for no limit), `retry_kwargs`, `retry_backoff`, `default_retry_delay` (default 180 s), and
`self.retry(...)` in the body. `max_retries` or `retry_backoff` with neither `autoretry_for`
nor `self.retry` configures nothing: dead settings are not reported as retries.

`apply_async(retry=..., retry_policy=...)` configures retrying the *publish* (the broker
connection), not the task: it is kept as an enqueue setting, never as the task's retry policy.
Failure handlers: `on_failure=` / a base class's `on_failure` method, `link_error=` on every
enqueue call, or a `task_failure` signal receiver.
"""

from __future__ import annotations

import re

from ..analysis.delivery import AT_LEAST_ONCE, AT_MOST_ONCE, UNKNOWN, Delivery
from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import IMPORT_STRINGS, canonical_in, forwarded, function_by_path, target
from ..analysis.program import calls_named, classes_where, deco_name, modules_where
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from ..analysis.summary import ClassSummary, ModuleSummary
from ..analysis.values import dict_items, lit, names, render
from .base import class_attrs, describe, job_from_function, matches, policy, retry_limit

TASK_DECORATORS = (
    "celery.Celery().task",
    "celery.app.base.Celery().task",
    "celery.shared_task",
    "celery.app.shared_task",
    "celery.task",
    "celery.decorators.task",
    "celery.decorators.periodic_task",
    "celery.task.periodic_task",
    "celery.current_app.task",
    "celery.Celery().periodic_task",
)
TASK_BASES = ("celery.Task", "celery.app.task.Task", "celery.Celery().Task", "celery.app.base.Celery().Task", "celery.task.Task")
# Extensions subclass the app and keep its name (`flask_celery.Celery`, Flask-Celery-Helper's): a
# `Celery()` of a library that is not analysed is a Celery app.
_LIBRARY_APP = re.compile(r"[\w.]+\.Celery\(\)\.(task|periodic_task|Task)")
# A platform's app its plugins import, not analysed here, from the module Celery's documentation
# names for it (`proj/celery.py`): `from pretalx.celery_app import app`, Indico's
# `from indico.core.celery import celery` ... `@app.task(...)`, `@celery.periodic_task(run_every=...)`.
_APP_MODULE = re.compile(r"[\w.]*\b(celery|celery_app|celeryapp)\.\w+\.(task|periodic_task)"
                         r"|[\w.]+\.(celery_app|celeryapp)\.(task|periodic_task)")  # pyramid_celery's `celery_app`


def is_task_decorator(name: str) -> bool:
    return matches(name, TASK_DECORATORS) or (_LIBRARY_APP.fullmatch(name) is not None and not name.endswith(".Task")) \
        or (_APP_MODULE.fullmatch(name) is not None and not name.startswith("celery."))


def is_task_base(name: str) -> bool:
    return matches(name, TASK_BASES) or (_LIBRARY_APP.fullmatch(name) is not None and name.endswith(".Task"))
RETRY_KEYS = ("autoretry_for", "max_retries", "retry_kwargs", "retry_backoff", "retry_backoff_max", "default_retry_delay", "retry_jitter")
SCHEDULE_NAMES = ("beat_schedule", "CELERYBEAT_SCHEDULE", "CELERY_BEAT_SCHEDULE")
ENQUEUE_METHODS = ("delay", "apply_async", "s", "si", "signature", "subtask", "map", "starmap", "chunks")
ENQUEUE_SETTINGS = ("countdown", "eta", "expires", "queue", "link_error", "task_id", "retry", "retry_policy", "priority")
TASK_SETTINGS = ("acks_late", "bind", "name", "queue", "rate_limit", "reject_on_worker_lost", "time_limit", "soft_time_limit")
FAILURE_SIGNALS = ("celery.signals.task_failure",)
# The signals a worker (or beat) sends as it starts, up to ready for work: their receivers run
# then, once, in that worker or in each pool process (`@worker_ready.connect def at_start(sender,
# **kw): sender.app.send_task(...)`, `@worker_process_init.connect def connect_db(**kw)`).
START_SIGNALS = tuple(f"celery.signals.{s}" for s in (
    "celeryd_init", "celeryd_after_setup", "worker_init", "worker_process_init", "worker_ready", "beat_init"))
# ... and those it sends as it stops (warm shutdown, each pool process's exit): their receivers
# run then, once, to hand back or record what the worker held.
STOP_SIGNALS = tuple(f"celery.signals.{s}" for s in (
    "worker_shutting_down", "worker_shutdown", "worker_process_shutdown"))
# The worker's bootsteps: a step class of the application's, added to `app.steps`, whose `start`
# the worker calls as it (or its consumer) starts and whose `stop`/`shutdown` as it stops.
BOOTSTEP_BASES = tuple(f"celery.bootsteps.{b}" for b in ("Step", "StartStopStep", "ConsumerStep"))
BOOTSTEP_METHODS = {"start": "start", "stop": "stop", "shutdown": "stop"}
# Beat's schedulers: the beat service calls `tick` again and again, applying the entries due.
BEAT_SCHEDULERS = ("celery.beat.Scheduler", "celery.beat.PersistentScheduler",
                   "django_celery_beat.schedulers.DatabaseScheduler", "redbeat.RedBeatScheduler",
                   "redbeat.schedulers.RedBeatScheduler")
# Remote-control commands of the application's own, run in each worker a broadcast reaches
# (`@control_command() def set_level(state, level)` ... `app.control.broadcast("set_level", ...)`;
# Celery 3's `@Panel.register`, still there).
CONTROL_COMMANDS = ("celery.worker.control.control_command", "celery.worker.control.inspect_command",
                    "celery.worker.control.Panel.register")
# The signals a worker sends around each task it runs: their receivers run there, once per task
# (`@task_prerun.connect def mark_started(task_id, task, **kw)`). Not `before_task_publish` and
# `after_task_publish`: the code that enqueues sends those.
TASK_SIGNALS = tuple(f"celery.signals.{s}" for s in (
    "task_received", "task_prerun", "task_postrun", "task_success", "task_retry", "task_failure",
    "task_internal_error", "task_revoked", "task_rejected", "task_unknown"))
# What a worker calls on the task's class around the body (docs.celeryq.dev, "Handlers").
TASK_HOOKS = ("__call__", "before_start", "on_success", "on_retry", "on_failure", "after_return")
ACKS_LATE_CONFIG = ("task_acks_late", "CELERY_TASK_ACKS_LATE", "CELERY_ACKS_LATE")  # app-wide acks_late
DEFAULT_MAX_RETRIES = 3
DEFAULT_RETRY_DELAY = 180.0


def retry_policy(settings: dict, anchor, fallback: dict | None = None, failure_handler: str | None = None) -> RetryPolicy:
    """Read Celery's retry settings from decorator keywords (or Task class attributes)."""
    merged = dict(fallback or {})
    merged.update(settings)
    on = names(merged.get("autoretry_for"))
    # an unread `**OPTIONS` splat may hold the count
    unread = RetryLimit.unknown_count(f"**{render(merged['**'])}") if "**" in merged else RetryLimit.known(DEFAULT_MAX_RETRIES)
    limit = retry_limit(merged.get("max_retries"), unread)
    for k, v in dict_items(merged.get("retry_kwargs")):
        if lit(k) == "max_retries":
            limit = retry_limit(v, limit)
    backoff_value = lit(merged.get("retry_backoff"), None)
    delay = lit(merged.get("default_retry_delay"), DEFAULT_RETRY_DELAY)
    for k, v in dict_items(merged.get("retry_kwargs")):
        if lit(k) == "countdown":
            delay = lit(v, delay)
    if backoff_value:
        backoff = "exponential"
    else:
        backoff = "constant" if delay else "none"
    setting = describe(merged, RETRY_KEYS) or "self.retry() (max_retries=3 by default)"
    if "on_failure" in merged:
        failure_handler = "on_failure"
    return policy(
        setting,
        anchor,
        retries=limit,
        on=_auto_retry_on(merged, on),
        explicit=False,
        from_default=not any(k in merged for k in RETRY_KEYS),  # only `self.retry()`: the limit is the default
        backoff=backoff,
        delay=float(delay) if isinstance(delay, (int, float)) and not isinstance(delay, bool) else None,
        failure_handler=failure_handler,
    )


def _settings(project: Project, settings: dict) -> dict:
    """Retry settings with module-level constants read (`max_retries=MAX_RETRIES`), also inside
    `retry_kwargs`."""
    out = dict(settings)
    for key in RETRY_KEYS:
        if key in out:
            out[key] = project.deref(out[key])
    kwargs = out.get("retry_kwargs")
    if kwargs and kwargs[0] == "dict":
        out["retry_kwargs"] = ["dict", [[k, project.deref(v)] for k, v in kwargs[1]]]
    return out


def _auto_retry_on(settings: dict, on: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """`()` when nothing retries automatically; the exception names when `autoretry_for` lists them."""
    if "autoretry_for" not in settings or lit(settings["autoretry_for"], 0) is None:
        return ()
    value = settings["autoretry_for"]
    if value[0] == "seq" and not value[1]:
        return ()
    return on if on is not None else None


class Celery:
    name = "celery"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        # An application's own `X.task` counts when X is one of its Celery apps (`tasks`).
        return (is_task_decorator(name) or name.endswith(".task")
                or name.removesuffix(".connect") in (*TASK_SIGNALS, *START_SIGNALS, *STOP_SIGNALS)
                or name in CONTROL_COMMANDS)

    def find_jobs(self, project: Project) -> list[JobSite]:
        return list(tasks(project).values()) + _task_signal_receivers(project) + _task_hooks(project) \
            + _beat_ticks(project)

    def find_started(self, project: Project) -> list[JobSite]:
        """Receivers of a worker's start and stop signals, run once in each worker that starts
        or stops, its bootsteps' `start` and `stop`, and its remote-control commands, run in each
        worker a broadcast reaches."""
        out = []
        for d in decorated_functions(project, "celery"):
            name = canonical_in(project, d.module, d.value[1]) or ""
            if name in CONTROL_COMMANDS and project.the_applications(d.module):
                out.append(job_from_function(project, d.function, "background", "background", triggers={"enqueue"}))
        for receiver, signal in _receivers(project, (*START_SIGNALS, *STOP_SIGNALS)).items():
            out.append(job_from_function(project, project.functions[receiver], "background", "background",
                                         triggers={"start" if signal in START_SIGNALS else "stop"}))
        for cls in classes_where(project, lambda cls: any(m in cls.methods for m in BOOTSTEP_METHODS)
                                 and any(b in BOOTSTEP_BASES for b in project.class_bases(cls))):
            for method, trigger in BOOTSTEP_METHODS.items():
                qualname = f"{cls.qualname}.{method}"
                if method in cls.methods and project.the_applications(project.function_module[qualname]):
                    out.append(job_from_function(project, project.functions[qualname], "background", "background",
                                                 triggers={trigger}))
        return out

    @staticmethod
    def delivery(project: Project, site: JobSite) -> Delivery | None:
        """Early acknowledgement (the default) is at most once; `acks_late=True` acknowledges after
        the task, so a worker lost mid-run leaves the message to be delivered again (on Redis and
        SQS after the `visibility_timeout`): at least once (docs.celeryq.dev/en/stable/glossary.html,
        "early" and "late acknowledgment"). The task's own `acks_late` (decorator, `Task` class or
        its base) wins over the app's `task_acks_late`. None: Celery's default."""
        written = site.settings.get("acks_late")
        if written is not None:
            return _acks(project, written, f"acks_late={render(written)}")
        config = _acks_late_config(project)
        if config is not None:
            return _acks(project, config[0], f"{config[1]}={render(config[0])} at {config[2]}")
        return None

    def find_registrations(self, project: Project) -> list[Registration]:
        regs: list[Registration] = []
        for mod in modules_where(project, lambda mod: any(map(is_schedule_name, mod.assigns))):
            for name, value in mod.assigns.items():
                if is_schedule_name(name):
                    regs.extend(_schedule(project, mod, value[0], Anchor(mod.path, value[1], value[2], value[1], value[2])))
        for cls in classes_where(project, lambda cls: any(n in SCHEDULE_NAMES for n in cls.attrs)):
            for name, value in cls.attrs.items():
                if name in SCHEDULE_NAMES:
                    mod = project.module_of_class(cls)
                    regs.extend(_schedule(project, mod, value[0], Anchor(mod.path, value[1], value[2], value[1], value[2])))
        for site in calls_named(project, ("update",), _reads_celery_name):
            name = site.name or ""
            if "beat_schedule" in site.event.kwargs and name.startswith("celery."):
                regs.extend(_schedule(project, site.module, site.event.kwargs["beat_schedule"], site.anchor))
            elif name.startswith("celery.") and name.endswith(".beat_schedule.update") and site.event.args:
                regs.extend(_schedule(project, site.module, site.event.args[0], site.anchor))
        for site in calls_named(project, ("add_periodic_task",), _reads_periodic):
            ev = site.event
            sig = ev.kwargs.get("sig") or (ev.args[1] if len(ev.args) > 1 else None)
            qualname = target(project, site.module, sig)
            if qualname in tasks(project):
                regs.append(Registration(qualname, self.name, "schedule", site.anchor, kind="periodic",
                                         settings={k: v for k, v in ev.kwargs.items() if k in ("name", "expires")}))
        regs.extend(_enqueues(project))
        return regs


def _apps_by_use(project: Project) -> set[str]:
    """`X.task` names for Celery apps recognised by how they are used: an object whose class is
    chosen at run time (`app = import_string(settings.CELERY_CLASS)("proj")`) is still a Celery
    app when the code calls `app.autodiscover_tasks()` or `app.config_from_object()` on it."""
    apps = set()
    for site in calls_named(project, ("autodiscover_tasks", "config_from_object"), _reads_app_call):
        apps.add(site.name.rpartition(".")[0] + ".task")
    return apps


def _decorators_by_use(project: Project) -> set[str]:
    """Decorators of a library not analysed here that make Celery tasks, known by use: a function
    they decorate is sent with `.apply_async(...)` (Celery's alone) or `.delay(...)` (`@nautobot_task`,
    Nautobot's name for `shared_task`). Not one a framework reads already (RQ's `@job` has a
    `.delay` too), nor the application's own (read by what its body does: `analysis.forwarding`)."""
    out: set[str] = set()
    for site in calls_named(project, ("delay", "apply_async")):
        fn = project.function_for((site.name or "").rpartition(".")[0])
        if fn is None or not fn.decorators or fn.class_qualname or not project.the_applications(site.module):
            continue  # (a test's `fake.delay()` says nothing of what made `fake`)
        mod = project.function_module[fn.qualname]
        named = [(value, canonical_in(project, mod, deco_name(value)) if value[0] in ("name", "call") else None)
                 for value, *_ in fn.decorators]
        if any(project.decorator_claims(mod, value, name) for value, name in named):
            continue  # a task a framework knows (`@app.task` beside `@scopes_disabled()`): the others wrap it
        # `.delay` is an attribute of what the outermost decorator returns (`@nautobot_task` over
        # `@transaction.atomic`): that one makes tasks, not those it is applied over.
        value, name = named[0]
        if name and "." in name and project.function_for(name) is None and name.rpartition(".")[0] not in project.modules:
            out.add(name)
    return out


def tasks(project: Project) -> dict[str, JobSite]:
    """Every Celery task of the project (cached on it), keyed by the function that runs."""
    return project.once("celery tasks", lambda: _compute_tasks(project))


def _compute_tasks(project: Project) -> dict[str, JobSite]:
    out: dict[str, JobSite] = {}
    failure_signal = _failure_signal(project)
    apps = _apps_by_use(project)
    for d in decorated_functions(project, "celery"):
        name = canonical_in(project, d.module, d.value[1]) if d.value[0] in ("name", "call") else None
        if not name or not (is_task_decorator(name) or name in apps):
            continue
        kwargs = d.value[3] if d.is_call else {}
        out[d.function.qualname] = _task_site(project, d.module, d.function.qualname, name, kwargs, d.anchor, failure_signal)
    by_use = _decorators_by_use(project)
    for mod in project.modules.values() if by_use else ():
        for fn in mod.functions.values():
            for value, line, col, end_line, end_col in fn.decorators:
                name = canonical_in(project, mod, deco_name(value)) if value[0] in ("name", "call") else None
                if name in by_use and fn.qualname not in out:
                    kwargs = value[3] if value[0] == "call" else {}
                    anchor = Anchor(mod.path, line, col, end_line, end_col)
                    out[fn.qualname] = _task_site(project, mod, fn.qualname, name, kwargs, anchor, failure_signal)
    for site in calls_named(project, ("task", "shared_task"), _reads_task_call):
        name = canonical_in(project, site.module, site.event.name) or ""
        ev = site.event
        if not (is_task_decorator(name) or name in apps) or not ev.args:
            continue
        qualname = target(project, site.module, ev.args[0])
        if qualname and qualname not in out:
            out[qualname] = _task_site(project, site.module, qualname, name, ev.kwargs, site.anchor, failure_signal)
    for cls in classes_where(project, lambda cls: "run" in cls.methods
                            and any(is_task_base(b) for b in project.class_bases(cls))):
        fn = project.functions[f"{cls.qualname}.run"]
        attrs = class_attrs(project, cls)
        anchor = project.class_anchor(cls)
        handler = "on_failure" if _defines(project, cls, "on_failure") else failure_signal
        out[fn.qualname] = JobSite(
            function=fn.qualname, framework="celery", kind="task", path=anchor.path, anchor=anchor,
            display=cls.qualname, doc_owner=cls.qualname, triggers={"enqueue"},
            retry=retry_policy(_settings(project, attrs), anchor, failure_handler=handler),
            settings={k: v for k, v in attrs.items() if k in TASK_SETTINGS},
        )
    return out


def _task_site(project: Project, module: ModuleSummary, qualname: str, decorator: str, kwargs: dict, anchor: Anchor,
               failure_signal: str | None) -> JobSite:
    base_cls = _base_class(project, module, kwargs.get("base"))
    base_attrs = class_attrs(project, base_cls) if base_cls is not None else {}
    handler = "on_failure" if base_cls is not None and _defines(project, base_cls, "on_failure") else failure_signal
    kind = "periodic" if decorator.endswith("periodic_task") else "task"
    site = job_from_function(project, project.functions[qualname], "celery", kind)
    site.retry = retry_policy(_settings(project, kwargs), anchor, _settings(project, base_attrs), failure_handler=handler)
    site.triggers.add("schedule" if kind == "periodic" else "enqueue")
    site.settings = {k: v for k, v in {**base_attrs, **kwargs}.items() if k in TASK_SETTINGS}  # a base Task's acks_late too
    return site


def _acks(project: Project, value: list, because: str) -> Delivery:
    late = lit(project.deref(value), UNKNOWN)
    if late is True:
        return Delivery(AT_LEAST_ONCE, f"{because}: acknowledged after the task, redelivered if the worker is lost")
    if late is False or late is None:
        return Delivery(AT_MOST_ONCE, f"{because}: acknowledged before the task runs")
    return Delivery(UNKNOWN, f"{because}: not a literal")


def _acks_late_config(project: Project) -> tuple[list, str, str] | None:
    """(value, setting, where) of the app-wide acks_late (`app.conf.task_acks_late = True`,
    `app.conf.update(...)`, a config module or class, Django's `CELERY_TASK_ACKS_LATE`, the old
    `CELERY_ACKS_LATE`). Read for every app of the project: one project's apps rarely disagree."""
    return project.once("celery task_acks_late", lambda: _find_acks_late_config(project))


def _find_acks_late_config(project: Project) -> tuple[list, str, str] | None:
    for mod in modules_where(project, lambda mod: any(_is_acks_late_name(n) for n in mod.assigns)):
        for name, (value, line, _col) in mod.assigns.items():
            if _is_acks_late_name(name):
                return value, name.rpartition(".")[2], f"{mod.path}:{line}"
    for cls in classes_where(project, lambda cls: any(n in ACKS_LATE_CONFIG for n in cls.attrs)):
        for name, (value, line, _col) in cls.attrs.items():
            if name in ACKS_LATE_CONFIG:
                return value, name, f"{project.module_of_class(cls).path}:{line}"
    for site in calls_named(project, ("update",), _reads_celery_name):
        if (site.name or "").endswith(".conf.update"):
            for name in ACKS_LATE_CONFIG:
                if name in site.event.kwargs:
                    return site.event.kwargs[name], name, f"{site.anchor.path}:{site.anchor.line}"
    return None


def _is_acks_late_name(target_name: str) -> bool:
    return target_name.rpartition(".")[2] in ACKS_LATE_CONFIG


def _defines(project: Project, cls: ClassSummary, method: str) -> bool:
    if method in cls.methods:
        return True
    return any(method in c.methods for b in project.class_bases(cls) if (c := project.classes.get(b)) is not None)


def _base_class(project: Project, module: ModuleSummary, value) -> ClassSummary | None:
    if not value or value[0] != "name":
        return None
    return project.classes.get(canonical_in(project, module, value[1]) or "")


def _task_signal_receivers(project: Project) -> list[JobSite]:
    """Receivers of the signals a worker sends around each task (`TASK_SIGNALS`), connected by
    decorator or by `signal.connect(receiver)`: callbacks run in the worker, once per task."""
    return [job_from_function(project, project.functions[q], "celery", "callback",
                              triggers={"failure" if signal.endswith(("_failure", "_internal_error")) else "enqueue"})
            for q, signal in _receivers(project, TASK_SIGNALS).items()]


def _receivers(project: Project, signals: tuple[str, ...]) -> dict[str, str]:
    """The application's receivers of these Celery signals, connected by decorator
    (`@worker_ready.connect`), by Django's `@receiver(worker_process_init)` or by
    `signal.connect(receiver)`: {receiver: the signal}."""
    found: dict[str, str] = {}
    for d in decorated_functions(project, "celery"):
        signal = (canonical_in(project, d.module, d.value[1]) or "").removesuffix(".connect")
        if signal in signals and project.the_applications(d.module):
            found.setdefault(d.function.qualname, signal)
    for site in calls_named(project, ("connect",), lambda p, m, ev: (p.canonical(ev.name) or "").removesuffix(".connect") in signals):
        receiver = target(project, site.module, site.event.args[0] if site.event.args else site.event.kwargs.get("receiver"))
        if receiver in project.functions and project.the_applications(site.module):
            found.setdefault(receiver, (project.canonical(site.event.name) or "").removesuffix(".connect"))
    for signal in signals:
        for receiver in project.signal_receivers.get(signal, ()):
            if project.the_applications(project.function_module[receiver]):
                found.setdefault(receiver, signal)
    return found


def _task_hooks(project: Project) -> list[JobSite]:
    """The methods a worker calls on a `Task` class around each task of that class or of the
    tasks given it as `base=` (`__call__` wraps the body; `on_failure` runs once retries are
    spent): they run in the worker, once per task. Not `delay`/`apply_async` overrides: the code
    that enqueues runs those."""
    known = tasks(project)
    out = []
    for cls in classes_where(project, lambda cls: any(m in cls.methods for m in TASK_HOOKS)
                             and any(is_task_base(b) for b in project.class_bases(cls))):
        if not project.the_applications(project.module_of_class(cls)):
            continue
        for method in TASK_HOOKS:
            qualname = f"{cls.qualname}.{method}"
            if method in cls.methods and qualname not in known and qualname in project.functions:
                trigger = "failure" if method == "on_failure" else "enqueue"
                out.append(job_from_function(project, project.functions[qualname], "celery", "callback", triggers={trigger}))
    return out


def _beat_ticks(project: Project) -> list[JobSite]:
    """A beat scheduler of the application's own overriding `tick`: the beat service runs it
    again and again, in the one beat process."""
    return [job_from_function(project, project.functions[f"{cls.qualname}.tick"], "celery", "periodic", triggers={"schedule"})
            for cls in classes_where(project, lambda cls: "tick" in cls.methods
                                     and any(b in BEAT_SCHEDULERS for b in project.class_bases(cls)))
            if project.the_applications(project.module_of_class(cls)) and f"{cls.qualname}.tick" in project.functions]


def _failure_signal(project: Project) -> str | None:
    """A `task_failure` receiver connected for every task: exhaustion is seen somewhere."""
    for d in decorated_functions(project, "celery"):
        name = canonical_in(project, d.module, d.value[1]) or ""
        if name.removesuffix(".connect") in FAILURE_SIGNALS and "sender" not in (d.value[3] if d.is_call else {}):
            return "task_failure signal"
    for site in calls_named(project, ("connect",), _reads_failure_connect):
        if "sender" not in site.event.kwargs:
            return "task_failure signal"
    return None


def is_schedule_name(target_name: str) -> bool:
    last = target_name.rpartition(".")[2]
    return last in SCHEDULE_NAMES or last.partition("[")[0] in SCHEDULE_NAMES


def _schedule(project: Project, mod: ModuleSummary, value, anchor: Anchor) -> list[Registration]:
    """Registrations from a beat schedule dict (or one entry of it, for `beat_schedule["x"] = {...}`)."""
    value = project.deref(value)
    entries = [project.deref(v) for _, v in dict_items(value)]
    if any(lit(k) == "task" for k, _ in dict_items(value)):
        entries = [value]
    regs = []
    for entry in entries:
        fields = {lit(k): project.deref(v) for k, v in dict_items(entry) if isinstance(lit(k), str)}
        qualname = target(project, mod, fields.get("task"))
        if qualname and qualname in tasks(project):
            settings = {k: v for k, v in fields.items() if k in ("schedule", "options")}
            regs.append(Registration(qualname, "celery", "schedule", anchor, kind="periodic", settings=settings))
    return regs


def _enqueues(project: Project) -> list[Registration]:
    """`task.delay(...)`, `task.apply_async(..., link_error=...)`, `task.s(...)`, `app.send_task("name")`.

    They add the enqueue trigger and the settings written at the call; `link_error` on every
    enqueue of a task that retries is its failure handler."""
    known = tasks(project)
    regs: list[Registration] = []
    enqueued: dict[str, list[bool]] = {}
    for site in calls_named(project, ENQUEUE_METHODS + ("send_task",), _reads_enqueue):
        ev = site.event
        name = canonical_in(project, site.module, ev.name) or ""
        if ev.attr == "send_task":
            if not name.startswith("celery.") or not ev.args:
                continue
            dotted = lit(ev.args[0])
            qualname = function_by_path(project, site.module, dotted) if isinstance(dotted, str) else None
        else:
            fn = project.function_for(name.rpartition(".")[0])
            qualname = fn.qualname if fn is not None else None
        if qualname not in known:
            continue
        forward = _runs_a_path(project, site, known[qualname])
        if forward is not None:  # `execute.delay(f"{func.__module__}.{func.__qualname__}", ...)`
            regs.append(Registration("", "celery", "enqueue", site.anchor, retry=known[qualname].retry, forward=forward))
        settings = {k: v for k, v in ev.kwargs.items() if k in ENQUEUE_SETTINGS}
        if ev.attr in ("delay", "apply_async", "send_task"):
            enqueued.setdefault(qualname, []).append("link_error" in ev.kwargs)
        regs.append(Registration(qualname, "celery", "enqueue", site.anchor, settings=settings))
    for qualname, links in enqueued.items():
        site = known[qualname]
        if links and all(links) and site.retry is not None and site.retry.failure_handler is None:
            site.retry.failure_handler = "link_error on every enqueue"
    return regs


# Calls that turn a dotted path into the module or the object it names.
_IMPORTERS = ("importlib.import_module", *IMPORT_STRINGS)


def _runs_a_path(project: Project, site, task: JobSite) -> tuple | None:
    """An application's own tasking system: a task that imports a function by its dotted path and
    runs it, enqueued by a helper with the path of its own parameter. The helper forwards what
    its callers pass, and those functions run inside the task, under its retry settings."""
    fn = project.functions.get(task.function)
    if fn is None or not any(project.canonical(e.name) in _IMPORTERS for e in fn.events if e.kind == "call"):
        return None
    ev = site.event
    values = list(ev.args)
    if ev.attr == "apply_async":
        packed = ev.kwargs.get("args") or (ev.args[0] if ev.args else None)
        values = packed[1] if packed and packed[0] == "seq" else []
    return next((found for v in values if (found := forwarded(site, v))), None)


def _reads_celery_name(project: Project, module, ev) -> bool:
    return (project.canonical(ev.name) or "").startswith("celery.")


def _reads_periodic(project: Project, module, ev) -> bool:
    name = project.canonical(ev.name)
    return not name or name.startswith(("celery.", "@"))  # `sender.add_periodic_task` in a signal handler


def _reads_app_call(project: Project, module, ev) -> bool:
    return "." in (project.canonical(ev.name) or "")


def _reads_task_call(project: Project, module, ev) -> bool:
    name = canonical_in(project, module, ev.name) or ""
    return is_task_decorator(name) or name.endswith(".task")  # an app's (`_apps_by_use`)


def _reads_failure_connect(project: Project, module, ev) -> bool:
    return (project.canonical(ev.name) or "").removesuffix(".connect") in FAILURE_SIGNALS


def _reads_enqueue(project: Project, module, ev) -> bool:
    name = canonical_in(project, module, ev.name) or ""
    if ev.attr == "send_task":
        return name.startswith("celery.")
    return project.function_for(name.rpartition(".")[0]) is not None


FRAMEWORK = Celery()
