# jobcheck-test: select=JC501
# A scheduler handed in untyped: `add_job` is read as APScheduler's by its trigger argument (a
# trigger name, or a trigger object of APScheduler's); an `add_job` without one, or the
# application's own `add_job`, is not.
import requests
from apscheduler.triggers.cron import CronTrigger


class SpendCleanup:
    def purge(self, db):  # expect: JC501
        requests.delete("https://spend.example/old")

    def compact(self, db):  # expect: JC501
        requests.post("https://spend.example/compact")


def rollup():  # expect: JC501
    requests.post("https://spend.example/rollup")


def render():
    return requests.get("https://spend.example/report").text


def export():
    requests.post("https://spend.example/export")


class Jobs:
    """The application's own registry that happens to be called `add_job`."""

    def add_job(self, func, trigger):
        self.pending = (func, trigger)


def register(scheduler, db, registry: Jobs):
    cleanup = SpendCleanup()
    scheduler.add_job(cleanup.purge, "interval", hours=1, args=[db])
    scheduler.add_job(cleanup.compact, trigger="cron", hour=3, args=[db])
    scheduler.add_job(rollup, CronTrigger.from_crontab("0 * * * *"))
    scheduler.add_job(render)  # no trigger: nothing says it is APScheduler's
    registry.add_job(export, "interval")
