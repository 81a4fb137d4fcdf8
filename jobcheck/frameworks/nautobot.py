"""Nautobot Jobs: a subclass of Nautobot's `Job` is run by Nautobot's `run_job` Celery task,
which calls its `run` (kind "task"); a `JobButtonReceiver`'s `receive_job_button` and a
`JobHookReceiver`'s `receive_job_hook` are what their `run` calls (a receiver overriding `run`
runs that instead). The method is found as Python
finds it, in the class or a base class of the application's own (nautobot-ssot's
`DataSyncBaseJob.run` runs for each sync job that does not define its own), and each method that
runs is one job, documented on the class defining it. A class whose method is Nautobot's own (a
form mixin, a subclass changing only variables) adds no job. nautobot-ssot's `DataSource` and
`DataTarget` are Jobs too, for the applications built on them; where such a job leaves `run`
to nautobot-ssot, the adapter loader it defines is what runs of it (`load_source_adapter`).

A `DatasourceContent(..., callback=refresh_things)` of an application's `datasource_contents`
is called when a Git repository providing that content syncs, in Nautobot's sync job: an entry
point of its own (kind "callback").

Nautobot does not retry a job: a failed run is recorded as failed, and a person runs it again
(or a schedule does).
"""

from __future__ import annotations

from ..analysis.jobs import JobSite, Registration
from ..analysis.names import target
from ..analysis.program import calls_named, classes_where
from ..analysis.project import Project
from .base import job_from_function

_PACKAGES = ("nautobot.extras.jobs.", "nautobot.apps.jobs.", "nautobot.core.jobs.")
# The method Nautobot's run of each base calls (the most specific base first).
_HOOKS = (("JobButtonReceiver", "receive_job_button"), ("JobHookReceiver", "receive_job_hook"), ("Job", "run"))
_SSOT_JOBS = ("nautobot_ssot.jobs.DataSource", "nautobot_ssot.jobs.DataTarget", "nautobot_ssot.jobs.base.DataSource",
              "nautobot_ssot.jobs.base.DataTarget", "nautobot_ssot.jobs.base.DataSyncBaseJob")
# What nautobot-ssot's `run` calls on a sync job that leaves `run` to it.
_SSOT_HOOKS = ("load_source_adapter", "load_target_adapter")
_DATASOURCE_CONTENT = ("nautobot.extras.plugins.DatasourceContent", "nautobot.apps.datasources.DatasourceContent",
                       "nautobot.extras.registry.DatasourceContent")


def _hook(bases: list[str]) -> str | None:
    """The method Nautobot calls on a class with these (canonical, transitive) bases."""
    names = [b.removesuffix("()") for b in bases]
    for base, method in _HOOKS:
        if any(n.startswith(_PACKAGES) and n.rpartition(".")[2] == base for n in names):
            return method
    return "run" if any(n in _SSOT_JOBS for n in names) else None


class Nautobot:
    name = "nautobot"

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        for cls in classes_where(project, lambda c: _hook(project.class_bases(c)) is not None):
            if not project.the_applications(project.module_of_class(cls)):
                continue
            method = _hook(project.class_bases(cls))
            # A receiver whose class overrides `run` itself: that runs, not the hook Nautobot's `run` calls.
            overridden = next((c for c in project._mro(cls) if "run" in c.methods), None) if method != "run" else None
            method = "run" if overridden is not None else method
            owner = overridden or next((c for c in project._mro(cls) if method in c.methods), None)
            if owner is None and any(b.removesuffix("()") in _SSOT_JOBS for b in project.class_bases(cls)):
                # nautobot-ssot's own `run` calls the adapters' loaders the class defines.
                method, owner = next(((m, c) for m in _SSOT_HOOKS for c in project._mro(cls) if m in c.methods),
                                     (method, None))
            if owner is None or f"{owner.qualname}.{method}" in sites:
                continue  # Nautobot's own method runs, or another class's job already
            qualname = f"{owner.qualname}.{method}"
            fn = project.functions.get(qualname)
            if fn is None:
                continue
            anchor = project.class_anchor(owner)
            sites[qualname] = JobSite(function=qualname, framework=self.name, kind="task", path=anchor.path,
                                      anchor=anchor, display=owner.qualname, doc_owner=owner.qualname,
                                      triggers={"enqueue"})
        for site in calls_named(project, ("DatasourceContent",), _makes_datasource_content):
            # DatasourceContent(name, content_identifier, icon, callback, weight=1000)
            found = target(project, site.module, site.event.kwargs.get("callback", site.event.args[3]
                                                                       if len(site.event.args) > 3 else None))
            if found and found not in sites and project.the_applications(site.module):
                sites[found] = job_from_function(project, project.functions[found], self.name, "callback",
                                                 triggers={"enqueue"})
        return list(sites.values())

    def find_registrations(self, project: Project) -> list[Registration]:
        return []


def _makes_datasource_content(project: Project, module, ev) -> bool:
    return (project.canonical(ev.name) or "") in _DATASOURCE_CONTENT


FRAMEWORK = Nautobot()
