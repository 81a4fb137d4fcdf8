# jobcheck-test: select=JC501
# Jobs scheduled from an entry of a module's table (`add_job(JOBS[name], ...)`, or a key of each
# entry, `TASKS[name]["run"]`): each function the table holds there is scheduled; one held under
# another key (a description) is not.
import requests
from apscheduler.schedulers.background import BackgroundScheduler

scheduler = BackgroundScheduler()


def sync_rates():  # expect: JC501
    requests.post("https://rates.example/sync")


def purge_orders():  # expect: JC501
    requests.post("https://shop.example/purge")


def rebuild_index():  # expect: JC501
    requests.post("https://search.example/rebuild")


def describe():
    return "nightly"


JOBS = {"rates": sync_rates, "purge": purge_orders}
TASKS = {"index": {"about": describe, "run": rebuild_index}}


def schedule_all():
    for name in JOBS:
        scheduler.add_job(JOBS[name], "interval", minutes=5)
    for name in TASKS:
        scheduler.add_job(TASKS[name]["run"], "cron", hour=3)
