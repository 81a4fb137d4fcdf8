# Entry points of the application's own kinds, configured in pyproject.toml.
import requests
from django.dispatch import receiver
from rq import Retry

from acme.queue import start_job_async_or_sync
from acme.signals import periodic_task, user_registered
from acme.tasks import BaseJob, register_task


@register_task(job_id="vacuum")
def vacuum():  # expect: JC501
    print("vacuum")


@register_task
def import_channel(channel_id):  # expect: JC501
    print(channel_id)


class ExportJob(BaseJob):  # expect: JC501
    def execute(self):
        print("export")


class Helper:
    def execute(self):
        print("not a job: not a BaseJob")


def rebuild_counters(project_id):  # expect: JC501
    requests.post("https://stats.example/rebuild", json={"project": project_id})  # expect: JC201


def fill_hashes(project_id):  # expect: JC501
    print(project_id)


@receiver(periodic_task)
def send_reminders(sender, **kwargs):  # expect: JC501
    print("reminders")


@receiver(signal=periodic_task)
def expire_drafts(sender, **kwargs):  # expect: JC501
    print("drafts")


def purge_tokens(sender, **kwargs):  # expect: JC501
    print("tokens")


periodic_task.connect(purge_tokens)


@receiver(user_registered)
def welcome(sender, user, **kwargs):
    print("a request-time receiver, not a periodic job")


def on_save(project_id):
    start_job_async_or_sync(rebuild_counters, project_id, retry=Retry(max=3))
    start_job_async_or_sync(fill_hashes, project_id)
