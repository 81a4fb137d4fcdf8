"""schedule (the `schedule` package): `schedule.every(10).minutes.do(job, ...)`, the same on a
`schedule.Scheduler()`, and `@repeat(every().day.at("10:30"))`.

The receiver is resolved: a `.do(f)` counts only when it hangs off `schedule.every(...)` (or a
`Scheduler().every(...)`), never because something is called `do`. schedule never retries a job
and runs jobs one after another in the thread that calls `run_pending()`: a job that raises stops
that loop unless the caller catches it, and then the job stays due and runs again at once.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite, Registration
from ..analysis.names import canonical_in, target
from ..analysis.program import calls_named
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from .base import job_from_function

_EVERY_ROOTS = ("schedule.every()", "schedule.Scheduler().every()", "schedule.default_scheduler.every()")
_REPEAT = ("schedule.repeat",)


def _is_job_builder(name: str) -> bool:
    """`schedule.every().monday.at().do`: a chain that starts at `every()` and ends in `do`."""
    if not name.endswith(".do"):
        return False
    return any(name.startswith(root) for root in _EVERY_ROOTS)


def _interval(name: str) -> str:
    """`schedule.every().monday.at().do` -> `every().monday.at()` (for the inventory)."""
    start = name.find("every()")
    return name[start:].removesuffix(".do") if start >= 0 else name


class Schedule:
    name = "schedule"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return name in _REPEAT

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []
        for d in decorated_functions(project, self.name):
            name = canonical_in(project, d.module, d.value[1]) if d.is_call else None
            if name not in _REPEAT:
                continue
            every = d.value[2][0] if d.value[2] else None
            when = canonical_in(project, d.module, every[1]) if every and every[0] in ("call", "name") else ""
            if when and every[0] == "call":
                when += "()"  # `every().day.at("10:30")`
            if not when or not any(when.startswith(root) for root in _EVERY_ROOTS):
                continue
            site = job_from_function(project, d.function, self.name, "periodic", triggers={"schedule"})
            site.settings = {"every": ["lit", _interval(when + ".do")]}
            sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        regs = []
        for site in calls_named(project, ("do",), _reads_job_builder):
            name = canonical_in(project, site.module, site.event.name)
            ev = site.event
            value = ev.kwargs.get("job_func") or (ev.args[0] if ev.args else None)
            qualname = target(project, site.module, value)
            if qualname:
                regs.append(Registration(qualname, self.name, "schedule", site.anchor, kind="periodic",
                                         settings={"every": ["lit", _interval(name)]}))
        return regs


def _reads_job_builder(project: Project, module, ev) -> bool:
    return _is_job_builder(canonical_in(project, module, ev.name) or "")


FRAMEWORK = Schedule()
