"""Nornir: `nr.run(task=backup_config)` runs the task once per host of the inventory, in Nornir's
runner (a thread pool), and keeps each host's exception in its result instead of raising it: each
such function is an entry point of its own (kind "task"), started by the job making the call.
A task's `task.run(task=...)` inside another task is part of that task, not a new one.

The processors given to `nr.with_processors([SaveResults(job)])` are called by the runner as
hosts finish: the `*_completed` hooks their class defines (`task_instance_completed`, where
results are usually stored) are entry points too (kind "callback"); the `*_started` hooks only
announce.

Nornir does not retry a task.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite, Registration
from ..analysis.names import target
from ..analysis.program import calls_named
from ..analysis.project import Project
from .base import job_from_function

# The objects whose `run` starts a task on every host: Nornir itself, however it was filtered or given processors.
_NORNIR = ("nornir.InitNornir()", "nornir.init_nornir.InitNornir()", "nornir.core.Nornir()")
_COMPLETED = ("task_completed", "task_instance_completed", "subtask_instance_completed")


def _nornir_call(project: Project, ev, method: str) -> bool:
    name = project.canonical(ev.name) or ""
    return name.startswith(_NORNIR) and name.endswith(f".{method}")


class Nornir:
    name = "nornir"

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        for site in calls_named(project, ("run",), lambda p, m, ev: _nornir_call(p, ev, "run")):
            ev = site.event
            found = target(project, site.module, ev.kwargs.get("task", ev.args[0] if ev.args else None))
            if found and found not in sites and project.the_applications(site.module):
                sites[found] = job_from_function(project, project.functions[found], self.name, "task", triggers={"start"})
        for site in calls_named(project, ("with_processors",), lambda p, m, ev: _nornir_call(p, ev, "with_processors")):
            if not project.the_applications(site.module):
                continue
            given = site.event.args[0] if site.event.args else None
            made = given[1] if given and given[0] in ("seq", "list") else [given]
            for value in made:
                cls = project.classes.get((project.canonical(value[1]) or "") if value and value[0] == "call" and value[1] else "")
                for hook in _COMPLETED if cls is not None else ():
                    owner = next((c for c in project._mro(cls) if hook in c.methods), None)
                    qualname = f"{owner.qualname}.{hook}" if owner is not None else ""
                    if qualname in project.functions and qualname not in sites:
                        sites[qualname] = job_from_function(project, project.functions[qualname], self.name, "callback",
                                                            triggers={"start"})
        return list(sites.values())

    def find_registrations(self, project: Project) -> list[Registration]:
        return []


FRAMEWORK = Nornir()
