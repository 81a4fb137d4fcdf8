# jobcheck-test: select=JC501
# A service that is itself an APScheduler scheduler and overrides `add_job` to log before handing
# the call on to the scheduler's own: `self.add_job(self.send_beat, ...)` schedules `send_beat`.
import logging

import requests
from apscheduler.schedulers.background import BackgroundScheduler

LOG = logging.getLogger(__name__)


class SchedulerService(BackgroundScheduler):
    def add_job(self, *args, **kwargs):
        LOG.debug("scheduling %s", args)
        return super().add_job(*args, **kwargs)


class Heartbeat(SchedulerService):
    def start_beating(self):
        self.add_job(self.send_beat, "interval", seconds=60)

    def send_beat(self):  # expect: JC501
        requests.post("https://status.example/beats", json={"service": "decision-engine"})


class Registry:
    """An `add_job` of the application's own that is no scheduler: it files what it is given."""

    def __init__(self):
        self.jobs = []

    def add_job(self, func, trigger):
        self.jobs.append((func, trigger))


def refresh():
    requests.post("https://status.example/refresh")


Registry().add_job(refresh, "interval")


def rotate_keys():  # expect: JC501
    requests.post("https://status.example/rotate")


JOBS = {"rotate": rotate_keys}


class NamedScheduler(BackgroundScheduler):
    """An override that schedules a job of its own choosing: what its callers pass is a name, and
    what runs is whichever function its table holds."""

    def add_job(self, name, hour):
        return super().add_job(JOBS[name], "cron", hour=hour)


def not_a_job():
    requests.post("https://status.example/never")


NamedScheduler().add_job(not_a_job, 3)
