# jobcheck-test: select=JC501
# Classes built on a base of a library jobcheck has no module for, named for jobs (`PeriodicTask`,
# `CronJob`): the method the library runs (`run`, `execute`, ...) is a job, periodic when the base
# is named for a schedule. A base of the standard library's (`asyncio.Task`), or one named for
# something else, makes none.
import asyncio

import httpx
from opslib.cron import CronJob, PeriodicTask
from opslib.models import Model


class HeartbeatTask(PeriodicTask):
    @property
    def interval(self):
        return 30.0

    async def run(self):  # expect: JC501
        await httpx.AsyncClient().post("https://coordinator.example/ping", json={})


class NightlyReport(CronJob):
    schedule = "0 3 * * *"

    def execute(self):  # expect: JC501
        httpx.post("https://reports.example/nightly", json={})


class Account(Model):
    def run(self):
        httpx.post("https://accounts.example/touch", json={})


class Tracked(asyncio.Task):
    def run(self):
        httpx.post("https://tracker.example/run", json={})
