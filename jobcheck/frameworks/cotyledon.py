"""cotyledon services: a `cotyledon.Service` subclass added to a `ServiceManager` runs its `run`
in worker processes the manager keeps alive (restarting one that dies). A `run` that repeats its
work until stopped, sleeping between rounds (directly or in a helper), is a periodic job with no
scheduler; a `run` that starts a server and returns is not one. Nothing retries a round, and each
of the service's `workers` runs the same loop beside the others.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite
from ..analysis.program import classes_where
from ..analysis.project import Project
from .background_loops import repeats_forever
from .base import job_from_function

SERVICE_BASES = ("cotyledon.Service", "cotyledon._service.Service")


class Cotyledon:
    name = "cotyledon"

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []

        def wanted(cls) -> bool:
            return "run" in cls.methods and any(b in SERVICE_BASES for b in project.class_bases(cls))

        for cls in classes_where(project, wanted):
            run = project.functions.get(f"{cls.qualname}.run")
            if run is not None and repeats_forever(project, run):
                sites.append(job_from_function(project, run, self.name, "periodic", triggers={"schedule"}))
        return sites

    def find_registrations(self, project: Project) -> list:
        return []


FRAMEWORK = Cotyledon()
