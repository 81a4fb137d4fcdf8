"""django-extensions jobs: `class Job(HourlyJob): def execute(self)` in an app's
`jobs/<when>/<name>.py`, run by `manage.py runjobs <when>` from cron (kind "periodic").

A subclass of one of the package's job classes (`django_extensions.management.jobs`) that
defines `execute` is an entry point; its `when` is the base it names (`HourlyJob` runs hourly)
or its own `when = "..."`. Nothing retries a job: `runjobs` runs each once and reports what
raised; the next run is the next cron tick, so a job that fails half-way runs again from the
start then.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite, Registration, RetryLimit
from ..analysis.program import classes_where
from ..analysis.project import Project
from .base import policy

BASES = tuple(f"django_extensions.management.jobs.{name}" for name in (
    "BaseJob", "MinutelyJob", "QuarterHourlyJob", "HourlyJob", "DailyJob", "WeeklyJob", "MonthlyJob", "YearlyJob",
))


class DjangoExtensions:
    name = "django_extensions"

    def find_jobs(self, project: Project) -> list[JobSite]:
        def wanted(cls) -> bool:
            return "execute" in cls.methods and any(b.removesuffix("()") in BASES for b in project.class_bases(cls))

        sites = []
        for cls in classes_where(project, wanted):
            anchor = project.class_anchor(cls)
            site = JobSite(
                function=f"{cls.qualname}.execute", framework=self.name, kind="periodic", path=anchor.path,
                anchor=anchor, display=cls.qualname, doc_owner=cls.qualname, triggers={"schedule"},
            )
            site.retry = policy("runjobs runs each job once per cron tick", anchor,
                                retries=RetryLimit.known(0), on=None, from_default=True, backoff="none")
            sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        return []


FRAMEWORK = DjangoExtensions()
