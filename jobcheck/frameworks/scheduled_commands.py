"""Commands a scheduler runs: a Django management command (`class Command(BaseCommand)` with
`handle`) or a click / typer command whose help says it runs on a schedule ("Run nightly by cron",
"every 15 minutes", "scheduled hourly") is a periodic job (kind "periodic"). The help is the
`help` attribute, the `help=` keyword or the docstring: the one place a command says how it is
run. So is a Django command whose `handle` runs a loop until stopped, sleeping between rounds
(a daemon a service manager keeps running: `while True: poll(); time.sleep(60)`). A command
with neither (a one-off `create-admin`, a `loaddata`) is not a job.

Nothing retries a command: the next run is the next tick, so one that fails half-way runs again
from the start then, and one that outlasts its interval overlaps the next unless it takes a lock.
"""

from __future__ import annotations

import re

from ..analysis.jobs import JobSite, Registration, RetryLimit
from ..analysis.program import classes_where
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from ..analysis.values import lit
from .background_loops import repeats_forever
from .base import job_from_function, policy

COMMAND_BASES = ("django.core.management.base.BaseCommand", "django.core.management.BaseCommand")
COMMAND_DECORATORS = ("click.command", "click.group().command", "typer.Typer().command")
_SCHEDULED = re.compile(
    r"\b(cron(tab)?|cronjob|scheduled?|periodic(ally)?|nightly|hourly|daily|weekly|monthly"
    r"|every\s+(\d+\s*)?(minutes?|hours?|days?|nights?|mornings?|evenings?|weeks?|months?|min|h))\b",
    re.IGNORECASE,
)
_NEGATED = re.compile(r"\b(not|never|once)\b[^.]{0,30}\b(cron|schedul|periodic)", re.IGNORECASE)


def says_scheduled(text: str | None) -> bool:
    return bool(text) and bool(_SCHEDULED.search(text)) and not _NEGATED.search(text)


class ScheduledCommands:
    name = "command"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return name in COMMAND_DECORATORS or (name.endswith(".command") and name.startswith(("click.", "typer.")))

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []

        def wanted(cls) -> bool:
            return "handle" in cls.methods and any(b in COMMAND_BASES for b in project.class_bases(cls))

        for cls in classes_where(project, wanted):
            help_text = lit(cls.attrs["help"][0]) if "help" in cls.attrs else None
            scheduled = says_scheduled(help_text if isinstance(help_text, str) else None) or says_scheduled(cls.docstring)
            handle = project.functions.get(f"{cls.qualname}.handle")
            if not scheduled and not (handle is not None and _daemon(project, handle)):
                continue
            anchor = project.class_anchor(cls)
            site = JobSite(
                function=f"{cls.qualname}.handle", framework=self.name, kind="periodic", path=anchor.path,
                anchor=anchor, display=cls.qualname, doc_owner=cls.qualname, triggers={"schedule"},
            )
            site.retry = _never_retried(anchor)
            sites.append(site)
        for d in decorated_functions(project, self.name):
            help_text = lit(d.value[3].get("help")) if d.is_call else None
            if says_scheduled(help_text if isinstance(help_text, str) else None) or says_scheduled(d.function.docstring):
                site = job_from_function(project, d.function, self.name, "periodic", triggers={"schedule"})
                site.retry = _never_retried(d.anchor)
                sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        return []


def _daemon(project: Project, handle) -> bool:
    """`handle` repeats work forever, sleeping between rounds, in a loop that never breaks out
    (`while True: batch = next_batch(); if not batch: break` is one run through the work). Only
    here: a worker thread's loop breaks on its stop sentinel and still repeats until stopped,
    while a command is started for its work, so a loop it can leave is that work done once."""
    return repeats_forever(project, handle) and not any(loop in handle.forever for loop, *_ in handle.breaks)


def _never_retried(anchor):
    return policy("a scheduler runs the command once per tick", anchor, retries=RetryLimit.known(0), on=None, from_default=True,
                  backoff="none")


FRAMEWORK = ScheduledCommands()
