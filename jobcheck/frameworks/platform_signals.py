"""Signals a platform sends from its own scheduled run, received by its plugins: a receiver of one
is a periodic job although the code that sends it is not in the plugin (`@receiver(periodic_task)`
in a pretix or pretalx plugin). A catalog, as data: the signal where the platform defines it, and
what the platform's documentation says of when it is sent.

Where the sender is in the project too (the platform checked itself), the job that sends it makes
its receivers jobs on its own (`Project._add_signal_receivers`); this adds nothing new there.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite
from ..analysis.project import Project
from .base import job_from_function

# signal -> why its receivers run on a schedule
PERIODIC_SIGNALS = {
    # "a regular django signal ... that we send out every time the periodic task cronjob runs.
    # This interval is not sharply defined, it can be everything between a minute and a day"
    # (docs.pretix.eu, Plugin hooks, `pretix.base.signals.periodic_task`).
    "pretix.base.signals.periodic_task": "pretix's periodic task (`runperiodic`) sends it on every run",
    # The same signal in pretalx (docs.pretalx.org, Plugin hooks, "periodic_task").
    "pretalx.common.signals.periodic_task": "pretalx's periodic task (`runperiodic`) sends it on every run",
}


class PlatformSignals:
    name = "platform_signal"

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []
        for signal, because in PERIODIC_SIGNALS.items():
            for qualname in project.signal_receivers.get(signal, ()):
                fn = project.functions.get(qualname)
                if fn is not None and project.the_applications(project.function_module[qualname]):
                    site = job_from_function(project, fn, self.name, "periodic", triggers={"schedule"})
                    site.settings = {"sent by": ["lit", because]}
                    sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list:
        return []


FRAMEWORK = PlatformSignals()
