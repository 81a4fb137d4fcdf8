"""Entry points of an application's own, named in `[tool.jobcheck.entry-points]`:
decorators (`myapp.jobs.periodic`), base classes (with the method that runs) and registrar
calls (`myapp.jobs.register(func)`)."""

from __future__ import annotations

from ..jobs import JobSite, Registration
from ..project import Project, calls_named, decorated_functions
from .base import job_from_function, matches


class Custom:
    name = "custom"

    def __init__(self, entry_points: dict) -> None:
        self.decorators = tuple(entry_points.get("decorators", ()))
        self.base_classes = tuple(entry_points.get("base-classes", ()))
        self.method = entry_points.get("method", "run")
        self.registrars = tuple(entry_points.get("registrars", ()))

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []
        for d in decorated_functions(project):
            if matches(d.name, self.decorators):
                sites.append(job_from_function(project, d.function, self.name, "task", triggers={"enqueue"}))
        if self.base_classes:
            for cls in project.classes.values():
                if self.method in cls.methods and any(matches(b, self.base_classes) for b in project.class_bases(cls)):
                    anchor = project.class_anchor(cls)
                    sites.append(JobSite(
                        function=f"{cls.qualname}.{self.method}", framework=self.name, kind="task", path=anchor.path,
                        anchor=anchor, display=cls.qualname, doc_owner=cls.qualname, triggers={"enqueue"},
                    ))
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        regs = []
        if not self.registrars:
            return regs
        attrs = tuple({r.rpartition(".")[2] for r in self.registrars})
        for site in calls_named(project, attrs):
            if site.name and matches(site.name, self.registrars) and site.event.args:
                target = project.resolve_target(site.event.args[0], site.module)
                if target:
                    regs.append(Registration(target, self.name, "enqueue", site.anchor))
        return regs
