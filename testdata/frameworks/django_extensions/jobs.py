# jobcheck-test: select=JC201,JC501
# django-extensions jobs (`manage.py runjobs hourly` from cron): every way to declare one, and
# classes that are not jobs.
import requests
from django.core.mail import send_mail
from django_extensions.management import jobs
from django_extensions.management.jobs import BaseJob, DailyJob, HourlyJob


class Job(HourlyJob):  # expect: JC501
    help = "Sync the mailing lists."

    def execute(self):
        requests.post("https://lists.example.com/sync", json={})


class DigestJob(DailyJob):  # expect: JC501
    def execute(self):
        send_mail("Digest", "...", "noreply@example.com", ["team@example.com"])


class Cleanup(jobs.WeeklyJob):  # expect: JC501
    def execute(self):
        return None


class Custom(BaseJob):  # expect: JC501
    when = "monthly"

    def execute(self):
        return None


class QuietJob(HourlyJob):
    """Refresh the cached counts.

    Reliability:
        Runs twice: safe; the counts are recomputed from the rows, not incremented.
        Overlaps: harmless; both runs write the same counts.
        Dies mid-run: the next hourly run recomputes them.
        Retries: none; runjobs runs it once per cron tick.
        Idempotent: yes; a pure recomputation.
    """

    def execute(self):
        return None


class Helper(HourlyJob):
    """Only configuration: no `execute` of its own, so nothing of ours runs."""

    help = "base for the app's hourly jobs"


class NotAJob:
    def execute(self):
        requests.post("https://example.com", json={})
