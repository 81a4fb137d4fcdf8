"""Celery: `@app.task`, `@shared_task`, `Task` subclasses, beat schedules, `add_periodic_task`.

Retries: `autoretry_for` (exceptions retried automatically), `max_retries` (default 3, `None`
for no limit), `retry_kwargs`, `retry_backoff`, `default_retry_delay` (default 180 s), and
`self.retry(...)` in the body. `max_retries` or `retry_backoff` with neither `autoretry_for`
nor `self.retry` configures nothing: dead settings are not reported as retries.
"""

from __future__ import annotations

from ..jobs import JobSite, Registration, RetryPolicy
from ..project import Project, calls_named, decorated_functions
from .base import describe, int_or_none, job_from_function, matches, policy
from .values import dict_items, lit, names

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
RETRY_KEYS = ("autoretry_for", "max_retries", "retry_kwargs", "retry_backoff", "retry_backoff_max", "default_retry_delay", "retry_jitter")
SCHEDULE_NAMES = ("beat_schedule", "CELERYBEAT_SCHEDULE", "CELERY_BEAT_SCHEDULE", "CELERY_BEAT_SCHEDULE")
DEFAULT_MAX_RETRIES = 3
DEFAULT_RETRY_DELAY = 180.0


def retry_policy(settings: dict, anchor, fallback: dict | None = None) -> RetryPolicy:
    """Read Celery's retry settings from decorator keywords (or Task class attributes)."""
    merged = dict(fallback or {})
    merged.update(settings)
    on = names(merged.get("autoretry_for"))
    max_retries = int_or_none(merged.get("max_retries"), DEFAULT_MAX_RETRIES)
    for k, v in dict_items(merged.get("retry_kwargs")):
        if lit(k) == "max_retries":
            max_retries = int_or_none(v, max_retries)
    backoff_value = lit(merged.get("retry_backoff"), None)
    delay = lit(merged.get("default_retry_delay"), DEFAULT_RETRY_DELAY)
    for k, v in dict_items(merged.get("retry_kwargs")):
        if lit(k) == "countdown":
            delay = lit(v, delay)
    if backoff_value:
        backoff = "exponential"
    else:
        backoff = "constant" if delay else "none"
    setting = describe(merged, RETRY_KEYS) or "self.retry()"
    return policy(
        setting,
        anchor,
        max_retries=max_retries,
        on=_auto_retry_on(merged, on),
        explicit=False,
        backoff=backoff,
        delay=float(delay) if isinstance(delay, (int, float)) else None,
        failure_handler="on_failure" if "on_failure" in merged else None,
    )


def _auto_retry_on(settings: dict, on: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """`()` when nothing retries automatically; the exception names when `autoretry_for` lists them."""
    if "autoretry_for" not in settings or lit(settings["autoretry_for"], 0) is None:
        return ()
    return on if on is not None else None


def _apps_by_use(project: Project) -> set[str]:
    """`X.task` names for Celery apps recognised by how they are used: an object whose class is
    chosen at run time (`app = import_string(settings.CELERY_CLASS)("proj")`) is still a Celery
    app when the code calls `app.autodiscover_tasks()` or `app.config_from_object()` on it."""
    apps = set()
    for site in calls_named(project, ("autodiscover_tasks", "config_from_object")):
        if site.name and "." in site.name:
            apps.add(site.name.rpartition(".")[0] + ".task")
    return apps


class Celery:
    name = "celery"

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: list[JobSite] = []
        apps = _apps_by_use(project)
        for d in decorated_functions(project):
            if not matches(d.name, TASK_DECORATORS) and d.name not in apps:
                continue
            kwargs = d.value[3] if d.is_call else {}
            base_attrs = self._base_attrs(project, kwargs.get("base"))
            kind = "periodic" if d.name.endswith("periodic_task") else "task"
            site = job_from_function(project, d.function, self.name, kind)
            site.retry = retry_policy(kwargs, d.anchor, base_attrs)
            site.triggers.add("schedule" if kind == "periodic" else "enqueue")
            site.settings = {k: v for k, v in kwargs.items() if k in ("acks_late", "bind", "name", "queue", "rate_limit")}
            sites.append(site)
        for cls in project.classes.values():
            if "run" not in cls.methods:
                continue
            bases = project.class_bases(cls)
            if not any(matches(b, TASK_BASES) for b in bases):
                continue
            fn = project.functions[f"{cls.qualname}.run"]
            attrs = self._class_attrs(project, cls)
            anchor = project.class_anchor(cls)
            sites.append(
                JobSite(
                    function=fn.qualname, framework=self.name, kind="task", path=anchor.path, anchor=anchor,
                    display=cls.qualname, doc_owner=cls.qualname, triggers={"enqueue"},
                    retry=retry_policy(attrs, anchor),
                )
            )
        return sites

    def _class_attrs(self, project: Project, cls) -> dict:
        """Class attributes, inherited ones first, as Values."""
        out: dict = {}
        for base in reversed(project.class_bases(cls)):
            base_cls = project.classes.get(base)
            if base_cls is not None:
                out.update({k: v[0] for k, v in base_cls.attrs.items()})
        out.update({k: v[0] for k, v in cls.attrs.items()})
        return out

    def _base_attrs(self, project: Project, base_value) -> dict:
        if not base_value or base_value[0] != "name":
            return {}
        cls = project.classes.get(project.canonical(base_value[1]) or "")
        return self._class_attrs(project, cls) if cls is not None else {}

    def find_registrations(self, project: Project) -> list[Registration]:
        regs: list[Registration] = []
        for mod in project.modules.values():
            for target, value in mod.assigns.items():
                if target.rpartition(".")[2] in SCHEDULE_NAMES:
                    regs.extend(self._schedule(project, mod, value[0], value[1], value[2]))
        for site in calls_named(project, ("update",)):
            if "beat_schedule" in site.event.kwargs and (site.name or "").startswith("celery."):
                a = site.anchor
                regs.extend(self._schedule(project, site.module, site.event.kwargs["beat_schedule"], a.line, a.col))
        for site in calls_named(project, ("add_periodic_task",)):
            ev = site.event
            sig = ev.kwargs.get("sig") or (ev.args[1] if len(ev.args) > 1 else None)
            target = project.resolve_target(sig, site.module)
            if target:
                regs.append(Registration(target, self.name, "schedule", site.anchor, kind="periodic"))
        return regs

    def _schedule(self, project: Project, mod, value, line: int, col: int) -> list[Registration]:
        from ..jobs import Anchor

        regs = []
        for _, entry in dict_items(value):
            for k, v in dict_items(entry):
                if lit(k) == "task":
                    target = project.resolve_target(v, mod)
                    if target:
                        regs.append(Registration(target, self.name, "schedule", Anchor(mod.path, line, col, line, col), kind="periodic"))
        return regs
