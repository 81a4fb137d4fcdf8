"""Cron add-ons for Django:

- django-cron: a `CronJobBase` subclass with a `schedule` and a `code`, run by `manage.py runcrons`
  (itself started by cron); its `do` method (its own or inherited) is the job. A run that raises
  is recorded as failed in the `CronJobLog`; with `Schedule(run_every_mins=N,
  retry_after_failure_mins=M)` the next `runcrons` after M minutes runs it again before its
  schedule is due, which is a retry of the whole `do` with no count. (A class attribute
  `RETRY_AFTER_FAILURE_MINS` that is not passed to `Schedule` changes nothing.)
- django-crontab: `CRONJOBS = [("*/5 * * * *", "app.cron.purge"), ...]` in the settings,
  written into the crontab by `manage.py crontab add`; each function named there is a job, and
  `("0 3 * * *", "django.core.management.call_command", ["clearsessions"])` runs that command
  (its `Command.handle` in the project). Cron never runs a failed job again.
"""

from __future__ import annotations

from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit
from ..analysis.names import function_by_path
from ..analysis.program import classes_where, modules_where
from ..analysis.project import Project
from ..analysis.values import lit, render
from .base import class_attrs, policy
from .instances import method_body

CRON_JOB_BASES = ("django_cron.CronJobBase", "django_cron.core.CronJobBase")
CALL_COMMAND = ("django.core.management.call_command",)


class DjangoCron:
    name = "django_cron"

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []

        def wanted(cls) -> bool:
            return any(b in CRON_JOB_BASES for b in project.class_bases(cls))

        for cls in classes_where(project, wanted):
            attrs = class_attrs(project, cls)
            schedule = attrs.get("schedule")
            do = method_body(project, cls.qualname, "do")  # its own or a base's
            if do is None or schedule is None:
                continue  # an abstract base: its subclasses, with a schedule, are the jobs
            anchor = project.class_anchor(cls)
            site = JobSite(function=do.qualname, framework=self.name, kind="periodic", path=anchor.path,
                           anchor=anchor, display=cls.qualname, doc_owner=cls.qualname, triggers={"schedule"})
            retry_after = schedule[3].get("retry_after_failure_mins") if schedule[0] == "call" else None
            if retry_after is not None and "run_every_mins" in schedule[3]:
                # Each later `runcrons` runs it again while it keeps failing: no count bounds it.
                site.retry = policy(f"Schedule(retry_after_failure_mins={render(retry_after)})", anchor,
                                    retries=RetryLimit.unlimited(), on=None, backoff="constant")
            sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        regs = []
        for mod in modules_where(project, lambda m: "CRONJOBS" in m.assigns):
            value, line, col = mod.assigns["CRONJOBS"][:3]
            for entry in value[1] if value and value[0] == "seq" else ():
                parts = entry[1] if entry and entry[0] == "seq" else []
                path = lit(parts[1]) if len(parts) > 1 else None
                if not isinstance(path, str):
                    continue
                if path in CALL_COMMAND:
                    args = lit(parts[2]) if len(parts) > 2 else None
                    command = args[0] if isinstance(args, tuple) and args else None
                    found = _command_handle(project, command) if isinstance(command, str) else None
                else:
                    found = function_by_path(project, mod, path)
                if found:
                    where = Anchor(mod.path, line, col, line, col + len("CRONJOBS"))
                    regs.append(Registration(found, self.name, "schedule", where, kind="periodic"))
        return regs


def _command_handle(project: Project, command: str) -> str | None:
    """The project's management command of that name: `<app>.management.commands.<name>`."""
    for module in project.modules:
        if module.endswith(f".management.commands.{command}"):
            qualname = f"{module}.Command.handle"
            if qualname in project.functions:
                return qualname
    return None


FRAMEWORK = DjangoCron()
