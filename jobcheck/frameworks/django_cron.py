"""Cron add-ons for Django:

- django-cron: a `CronJobBase` subclass with a `schedule` and a `code`, run by `manage.py runcrons`
  (itself started by cron); its `do` method is the job. A run that raises is recorded as failed
  in the `CronJobLog`; with `RETRY_AFTER_FAILURE_MINS` set the next `runcrons` after that many
  minutes runs it again before its schedule is due, which is a retry of the whole `do`.
  `runcrons` takes a lock per job (a cache or file lock), so runs do not overlap by default.
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

CRON_JOB_BASES = ("django_cron.CronJobBase", "django_cron.core.CronJobBase")
CALL_COMMAND = ("django.core.management.call_command",)


class DjangoCron:
    name = "django_cron"

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []

        def wanted(cls) -> bool:
            return any(b in CRON_JOB_BASES for b in project.class_bases(cls))

        for cls in classes_where(project, wanted):
            do = project.functions.get(f"{cls.qualname}.do")
            if do is None:
                continue
            anchor = project.class_anchor(cls)
            site = JobSite(function=do.qualname, framework=self.name, kind="periodic", path=anchor.path,
                           anchor=anchor, display=cls.qualname, doc_owner=cls.qualname, triggers={"schedule"})
            retry_after = class_attrs(project, cls).get("RETRY_AFTER_FAILURE_MINS")
            if retry_after is not None:
                # Each later `runcrons` runs it again while it keeps failing: no count bounds it.
                site.retry = policy(f"RETRY_AFTER_FAILURE_MINS = {render(retry_after)}", anchor,
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
                    found = _command_handle(project, args[0]) if args and isinstance(args[0], str) else None
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
