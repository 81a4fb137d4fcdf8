# jobcheck-test: select=JC201,JC501
# Celery's old `@periodic_task(run_every=...)` (celery.task / celery.decorators, Celery 3 and 4),
# taking the task options of `@task`: retried by `autoretry_for` or by `self.retry()` after the
# effect, or not retried at all.
from datetime import timedelta

import requests
from celery.decorators import periodic_task
from celery.schedules import crontab
from celery.task import periodic_task as task_periodic_task
from django.core.mail import send_mail


@periodic_task(run_every=crontab(hour=7, minute=30), autoretry_for=(IOError,), max_retries=3)
def push_daily_totals():  # expect: JC501
    requests.post("https://ledger.example/totals", json={})  # expect: JC201


@task_periodic_task(run_every=timedelta(minutes=15), bind=True, max_retries=5)
def mail_digest(self):  # expect: JC501
    try:
        send_mail("Digest", "...", "news@example.com", ["list@example.com"])  # expect: JC201
    except OSError as exc:
        raise self.retry(exc=exc)


@periodic_task(run_every=timedelta(hours=1), ignore_result=True)
def ping_monitor():  # expect: JC501
    requests.post("https://monitor.example/heartbeat", json={})  # no retries configured
