# jobcheck-test: select=JC201,JC501
# rq-scheduler, as its README writes it: `scheduler.schedule(scheduled_time, func, interval=...)`,
# `scheduler.enqueue_in(timedelta, func, ...)`, `scheduler.enqueue_at(datetime, func)` and
# `scheduler.cron(cron_string, func)`, the target given by position or by keyword, the scheduler
# made directly or by django-rq. rq-scheduler passes no `Retry`: a scheduled job runs once unless
# the function retries itself (tenacity here).
from datetime import datetime, timedelta

import django_rq
import requests
from redis import Redis
from rq_scheduler import Scheduler
from tenacity import retry, stop_after_attempt

scheduler = Scheduler(connection=Redis())


def rebuild_sitemap():  # expect: JC501
    print("sitemap")


def expire_trials():  # expect: JC501
    requests.post("https://billing.example/expire", json={})  # scheduled, not retried


@retry(stop=stop_after_attempt(4))
def remind_user(user_id):  # expect: JC501
    requests.post("https://push.example/send", json={"user": user_id})  # expect: JC201


def close_auctions():  # expect: JC501
    print("closed")


def nightly_export():  # expect: JC501
    print("export")


def start(user_id):
    scheduler.schedule(datetime.utcnow(), rebuild_sitemap, interval=3600, repeat=None)
    scheduler.schedule(scheduled_time=datetime.utcnow(), func=expire_trials, interval=60)
    scheduler.enqueue_in(timedelta(minutes=10), remind_user, user_id)
    scheduler.enqueue_at(datetime(2030, 1, 1, 3, 0), close_auctions)
    django_rq.get_scheduler("default").cron("0 2 * * *", nightly_export, repeat=None)
