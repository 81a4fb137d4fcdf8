"""Entry points of an application's own, named in `[tool.jobcheck.entry-points]`:

- `decorators`: job decorators and registrar decorators (`@register_task(...)`, `@periodic`);
- `base-classes`: job base classes, with `method` the method that runs (default `run`);
- `registrars`: calls that enqueue or register the function given as their first argument
  (`start_job_async_or_sync(func, ...)`, `registry.add(func)`); an RQ `Retry(...)` passed to
  one is read as the retry setting, since such helpers hand it on to the queue;
- `signals`: Django signals a scheduler sends periodically (`myapp.signals.hourly`): functions
  connected with `@receiver(hourly)` or `hourly.connect(f)` are periodic entry points.

Names are resolved dotted names; `*` matches any run of characters.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite, Registration
from ..analysis.names import canonical_in, origin, target
from ..analysis.program import calls_named, classes_where
from ..analysis.decorators import RECEIVER_DECORATORS, decorated_functions
from ..analysis.project import Project
from .base import job_from_function, matches


def _configured(name: str, patterns: tuple[str, ...]) -> bool:
    """A configured name matches as written, or as the tail of the resolved name: an application
    run with its package folder on sys.path spells `core.redis.enqueue` what the analysed tree
    calls `label_studio.core.redis.enqueue`."""
    return matches(name, patterns) or any("*" not in p and name.endswith("." + p) for p in patterns)


_TARGET_KEYWORDS = ("func", "f", "fn", "job", "task", "callable", "function")


class Custom:
    name = "custom"

    def __init__(self, entry_points: dict) -> None:
        self.decorators = tuple(entry_points.get("decorators", ()))
        self.base_classes = tuple(entry_points.get("base-classes", ()))
        self.method = entry_points.get("method", "run")
        self.registrars = tuple(entry_points.get("registrars", ()))
        self.signals = tuple(entry_points.get("signals", ()))

    def reads_decorator(self, name: str) -> bool:
        return bool(self.decorators and _configured(name, self.decorators)) or bool(self.signals and name in RECEIVER_DECORATORS)

    def reads_registrar_call(self, project: Project, module, ev) -> bool:
        # As resolved, or as the application imports it (`core.redis.enqueue` when the folder
        # holding `core/` is on sys.path).
        spellings = (canonical_in(project, module, ev.name) or "", origin(project, module, ev.name) or "", ev.name or "")
        return any(_configured(n, self.registrars) for n in spellings)

    def reads_signal_connect(self, project: Project, module, ev) -> bool:
        name = origin(project, module, ev.name) or ""
        return name.endswith(".connect") and _configured(name.removesuffix(".connect"), self.signals)

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []
        for d in decorated_functions(project, self.name):
            name = canonical_in(project, d.module, d.value[1]) or ""
            if self.decorators and (_configured(name, self.decorators) or _configured(d.value[1] or "", self.decorators)):
                site = job_from_function(project, d.function, self.name, "task", triggers={"enqueue"})
                site.settings = {"decorator": ["lit", name], **(d.value[3] if d.is_call else {})}
                sites.append(site)
            elif self.signals and name in RECEIVER_DECORATORS and d.is_call:
                signal = self._signal(project, d.module, d.value[3].get("signal") or (d.value[2][0] if d.value[2] else None))
                if signal:
                    site = job_from_function(project, d.function, self.name, "periodic", triggers={"schedule"})
                    site.settings = {"signal": ["lit", signal]}
                    sites.append(site)
        if self.base_classes:
            def wanted(cls) -> bool:
                return self.method in cls.methods and any(_configured(b, self.base_classes) for b in project.class_bases(cls))

            for cls in classes_where(project, wanted):
                anchor = project.class_anchor(cls)
                sites.append(JobSite(
                    function=f"{cls.qualname}.{self.method}", framework=self.name, kind="task", path=anchor.path,
                    anchor=anchor, display=cls.qualname, doc_owner=cls.qualname, triggers={"enqueue"},
                ))
        return sites

    def _signal(self, project: Project, module, value) -> str | None:
        """The configured signal a receiver decorator's argument names (one, or one of a list)."""
        if not value:
            return None
        if value[0] == "seq":
            return next((s for v in value[1] if (s := self._signal(project, module, v))), None)
        if value[0] != "name" or not value[1]:
            return None
        name = origin(project, module, value[1]) or ""
        return name if _configured(name, self.signals) else None

    def find_registrations(self, project: Project) -> list[Registration]:
        from .rq import is_rq_retry, retry_from

        regs = []
        if self.registrars:
            attrs = tuple({r.rpartition(".")[2] for r in self.registrars if "*" not in r.rpartition(".")[2]})
            for site in calls_named(project, attrs, self.reads_registrar_call):
                name = canonical_in(project, site.module, site.event.name) or ""
                ev = site.event
                value = ev.args[0] if ev.args else next((ev.kwargs[k] for k in _TARGET_KEYWORDS if k in ev.kwargs), None)
                qualname = target(project, site.module, value)
                if not qualname:
                    continue
                retry = next((retry_from(v, site.anchor) for v in ev.kwargs.values() if is_rq_retry(project, site.module, v)), None)
                regs.append(Registration(qualname, self.name, "enqueue", site.anchor, retry=retry,
                                         settings={"registrar": ["lit", name]}))
        if self.signals:
            for site in calls_named(project, ("connect",), self.reads_signal_connect):
                name = origin(project, site.module, site.event.name) or ""
                ev = site.event
                qualname = target(project, site.module, ev.kwargs.get("receiver") or (ev.args[0] if ev.args else None))
                if qualname:
                    regs.append(Registration(qualname, self.name, "schedule", site.anchor, kind="periodic",
                                             settings={"signal": ["lit", name.removesuffix(".connect")]}))
        return regs
