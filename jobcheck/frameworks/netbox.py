"""NetBox background jobs: a subclass of NetBox's `JobRunner` is run by NetBox's RQ worker, which
calls its `run` (kind "task", enqueued with `MyJob.enqueue(...)`; `enqueue_once(interval=...)`
re-enqueues it after each run); `@system_job(interval=...)` on the class makes it a periodic
system job. A custom script (`extras.scripts.Script`) is run the same way, by its `run`.

The method is found as Python finds it, in the class or a base class of the application's own;
each method that runs is one job, documented on the class defining it. A function handed to
`Job.enqueue(func, instance=..., schedule_at=..., interval=...)` (NetBox's older API, also by a
dotted path, `import_string(f"plugin.jobs.{name}")`, the name a caller's) is a job too, periodic
with an `interval`. NetBox does not retry a job: a failed run is recorded as errored, and a person
runs it again (or the interval does).
"""

from __future__ import annotations

from ..analysis.jobs import JobSite, Registration
from ..analysis.names import canonical_in, forwarded, target
from ..analysis.program import calls_named, classes_where, deco_name
from ..analysis.project import Project

_RUNNERS = ("netbox.jobs.JobRunner", "extras.scripts.Script", "extras.scripts.BaseScript", "netbox.scripts.Script")
_SYSTEM_JOB = ("netbox.jobs.system_job",)
_JOB_ENQUEUE = ("core.models.Job.enqueue", "core.models.jobs.Job.enqueue")


def _is_runner(bases: list[str]) -> bool:
    return any(b.removesuffix("()") in _RUNNERS for b in bases)


class NetBox:
    name = "netbox"

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        for cls in classes_where(project, lambda c: _is_runner(project.class_bases(c))):
            if not project.the_applications(project.module_of_class(cls)):
                continue
            owner = next((c for c in project._mro(cls) if "run" in c.methods), None)
            if owner is None:
                continue  # NetBox's own `run`
            qualname = f"{owner.qualname}.run"
            periodic = _periodic(project, cls)
            if qualname in sites:
                if periodic:  # a `@system_job` subclass keeping its base's `run`: that `run` runs on the interval too
                    sites[qualname].kind = "periodic"
                    sites[qualname].triggers.add("schedule")
                continue
            if qualname not in project.functions or project.abstract(qualname):
                continue
            anchor = project.class_anchor(owner)
            sites[qualname] = JobSite(function=qualname, framework=self.name, kind="periodic" if periodic else "task",
                                      path=anchor.path, anchor=anchor, display=owner.qualname,
                                      doc_owner=owner.qualname, triggers={"schedule" if periodic else "enqueue"})
        return list(sites.values())

    def find_registrations(self, project: Project) -> list[Registration]:
        regs = []
        for site in calls_named(project, ("enqueue",)):
            if canonical_in(project, site.module, site.event.name) not in _JOB_ENQUEUE:
                continue
            ev = site.event
            value = ev.kwargs.get("func") or (ev.args[0] if ev.args else None)
            qualname = target(project, site.module, value)
            forward = None if qualname else forwarded(site, value)
            if qualname or forward:
                periodic = "interval" in ev.kwargs
                regs.append(Registration(qualname or "", self.name, "schedule" if periodic else "enqueue", site.anchor,
                                         kind="periodic" if periodic else "task", forward=forward))
        return regs


def _periodic(project: Project, cls) -> bool:
    """`@system_job(interval=...)` on the class: NetBox schedules it itself."""
    return any((project.canonical(deco_name(value)) or "") in _SYSTEM_JOB for value, *_ in cls.decorators)


FRAMEWORK = NetBox()
