"""APScheduler: `scheduler.add_job(func, trigger, ...)`, `@scheduler.scheduled_job(...)`, and
v4's `add_schedule(func, trigger)`; Flask-APScheduler's `scheduler.add_job(id, func, ...)` and
`@scheduler.task(trigger, id=..., ...)` on its `APScheduler` wrapper; a listener of its job events
(`scheduler.add_listener(f, EVENT_JOB_ERROR)`), run around each job. APScheduler never retries a failed job; `max_instances`
(default 1) and `coalesce` decide overlap, and are kept as settings."""

from __future__ import annotations

from ..analysis.decorators import decorated_functions
from ..analysis.jobs import JobSite, Registration
from ..analysis.names import forwarded, target
from ..analysis.program import calls_named
from ..analysis.project import Project
from .background_loops import runs_parameter
from .base import job_from_function

SETTINGS = ("max_instances", "coalesce", "misfire_grace_time", "id", "replace_existing")


class APScheduler:
    name = "apscheduler"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return (name.startswith("apscheduler.") and name.rpartition(".")[2] == "scheduled_job"
                or name.startswith("flask_apscheduler.") and name.rpartition(".")[2] in ("task", "scheduled_job"))

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []
        for d in decorated_functions(project, self.name):
            if self.reads_decorator(d.name):
                kwargs = d.value[3] if d.is_call else {}
                site = job_from_function(project, d.function, self.name, "periodic", triggers={"schedule"})
                site.settings = {k: v for k, v in kwargs.items() if k in SETTINGS}
                sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        regs = []
        for site in calls_named(project, ("add_job", "add_schedule", "add_job_async"), _reads_scheduler_call):
            ev = site.event
            value = ev.kwargs.get("func") or ev.kwargs.get("func_or_task_id") or (ev.args[0] if ev.args else None)
            if (value and value[0] == "lit" and len(ev.args) > 1 and "func" not in ev.kwargs
                    and (project.canonical(ev.name) or "").startswith("flask_apscheduler.")):
                value = ev.args[1]  # Flask-APScheduler: add_job(id, func, ...)
            found = target(project, site.module, value)
            forward = None if found else forwarded(site, value)
            if found or forward:
                settings = {k: v for k, v in ev.kwargs.items() if k in SETTINGS}
                regs.append(Registration(found or "", self.name, "schedule", site.anchor, kind="periodic",
                                         settings=settings, forward=forward))
            for handed in _run_by_the_job(project, site, found):
                regs.append(Registration(handed, self.name, "schedule", site.anchor, kind="periodic",
                                         settings={k: v for k, v in ev.kwargs.items() if k in SETTINGS}))
        # `scheduler.add_listener(self.on_job_run, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)`: the
        # scheduler calls it around each job it runs.
        for site in calls_named(project, ("add_listener",),
                                lambda p, m, ev: (p.canonical(ev.name) or "").startswith("apscheduler.")):
            found = target(project, site.module, site.event.args[0]) if site.event.args else None
            if found:
                regs.append(Registration(found, self.name, "schedule", site.anchor, kind="callback"))
        return regs


def _run_by_the_job(project: Project, site, found: str | None) -> list[str]:
    """The functions a scheduled wrapper of the application's own runs from its arguments:
    `add_job(run_with_lock, args=(scheduled_chat, key))` (or `kwargs={"func": scheduled_chat}`)
    where `run_with_lock(func, key)` calls `func`: `scheduled_chat` runs on that schedule too."""
    fn = project.functions.get(found or "")
    if fn is None:
        return []
    params = [p for p in fn.params if p not in ("self", "cls")]
    given: list[tuple[str, list]] = []
    positional = site.event.kwargs.get("args")
    if positional and positional[0] in ("seq", "tuple", "list"):
        given += list(zip(params, positional[1]))
    named = site.event.kwargs.get("kwargs")
    if named and named[0] == "dict":
        given += [(key[1], value) for key, value in named[1]
                  if key and key[0] == "lit" and isinstance(key[1], str) and key[1] in params]
    out = []
    for param, value in given:
        handed = target(project, site.module, value) if value and value[0] in ("name", "ref") else None
        if handed and handed != found and runs_parameter(project, fn, param):
            out.append(handed)
    return out


def _reads_scheduler_call(project: Project, module, ev) -> bool:
    name = project.canonical(ev.name) or ""
    if name.startswith(("apscheduler.", "flask_apscheduler.")):
        return True
    # A scheduler passed in untyped (`def setup(scheduler): scheduler.add_job(f, "interval", ...)`)
    # is read by APScheduler's trigger argument; an `add_job` of the application's own is not.
    own = project.function_for(name)
    if own is not None and _hands_on_to_the_library(project, own):
        return True  # `self.add_job(...)` on a scheduler subclass whose `add_job` logs, then calls super()'s
    if ev.attr != "add_job" or own is not None:
        return False
    trigger = ev.kwargs.get("trigger", ev.args[1] if len(ev.args) > 1 else None)
    return trigger in (["lit", "interval"], ["lit", "cron"], ["lit", "date"]) or (
        bool(trigger) and trigger[0] in ("name", "call")
        and (project.canonical(trigger[1]) or "").startswith("apscheduler.triggers."))


def _hands_on_to_the_library(project: Project, fn) -> bool:
    """An override in a subclass of an APScheduler scheduler that hands the call on to the
    scheduler's own method (`return super().add_job(*args, **kwargs)`)."""
    cls = project.classes.get(fn.class_qualname or "")
    return cls is not None and any(base.startswith("apscheduler.") for base in project.class_bases(cls)) and any(
        ev.kind == "call" and ev.attr == fn.name and (ev.name or "").startswith("super") and _passes_its_own(ev)
        for ev in fn.events)


def _passes_its_own(ev) -> bool:
    """The override hands on what its callers give: `super().add_job(func, ...)` with its own
    parameter first, or `super().add_job(*args, **kwargs)`; not a job of its choosing
    (`super().add_job(REGISTRY[name], "cron")`)."""
    first = ev.args[0] if ev.args else ev.kwargs.get("func")
    splat = ev.kwargs.get("**")
    return bool(first) and (first[0] == "param" or (first == ["other"] and bool(splat) and splat[0] == "param"))


FRAMEWORK = APScheduler()
