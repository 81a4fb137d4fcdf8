# jobcheck-test: select=JC201,JC501
# APScheduler 3 and 4, as their documentation writes them: `add_job`, `@scheduled_job`,
# `add_schedule`. APScheduler never retries a failed run, so effects here are not retried ones.
from typing import Final

import requests
from apscheduler import AsyncScheduler
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.interval import IntervalTrigger

scheduler = BackgroundScheduler()


def send_heartbeat():  # expect: JC501
    requests.post("https://status.example/heartbeat", json={})


@scheduler.scheduled_job("cron", hour=3, max_instances=1, coalesce=True)
def nightly_export():  # expect: JC501
    print("export")


async def refresh_tokens():  # expect: JC501
    print("refresh")


def helper():
    print("not scheduled")


class Jobs:
    def add_job(self, func):
        return func


scheduler.add_job(send_heartbeat, "interval", minutes=1, id="heartbeat", replace_existing=True)
Jobs().add_job(helper)


async def main():
    async with AsyncScheduler() as v4:
        await v4.add_schedule(refresh_tokens, IntervalTrigger(minutes=30), id="tokens")


class BudgetReset:
    def reset(self):  # expect: JC501
        requests.post("https://billing.example/budgets/reset", json={})


def schedule_budget_reset(sched: BackgroundScheduler):
    # `Final` qualifies the name; the value says what it is.
    job: Final = BudgetReset()
    sched.add_job(job.reset, "interval", hours=1)


class Resettable:
    def reset(self):
        raise NotImplementedError


class QuotaReset(Resettable):
    def reset(self):  # expect: JC501
        requests.post("https://billing.example/quotas/reset", json={})


def schedule_quota_reset(sched: BackgroundScheduler):
    # The value is more precise than what `Final[...]` names.
    job: Final[Resettable] = QuotaReset()
    sched.add_job(job.reset, "interval", hours=1)


def record_run(event):  # expect: JC501
    # A listener of the scheduler's job events: it runs around each job, in the scheduler.
    requests.post("https://status.example/runs", json={"job": event.job_id})


class Bus:
    def add_listener(self, fn, mask=None):
        return fn


def on_message(event):
    print(event)  # a listener of another object's: no job


scheduler.add_listener(record_run, 4096 | 8192)
Bus().add_listener(on_message)
