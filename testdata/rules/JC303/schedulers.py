# jobcheck-test: select=JC303
# APScheduler, Huey, RQ and Dramatiq periodic jobs that can overlap, and their clean forms.
import dramatiq
from apscheduler.schedulers.background import BackgroundScheduler
from huey import RedisHuey, crontab
from periodiq import cron
from redis import Redis
from rq_scheduler import Scheduler

from .models import Device, Feed

scheduler = BackgroundScheduler()
huey = RedisHuey("app")
rq_scheduler = Scheduler(connection=Redis())


@scheduler.scheduled_job("interval", minutes=1, max_instances=3)
def poll_devices():  # expect: JC303
    print("poll")


def refresh_feeds():  # expect: JC303
    print("feeds")


scheduler.add_job(refresh_feeds, "interval", seconds=30, max_instances=5)


@huey.periodic_task(crontab(minute="*"))
def check_devices():  # expect: JC303
    for device in Device.objects.filter(active=True):
        device.ping()


def pull_feeds():  # expect: JC303
    for feed in Feed.objects.all():
        feed.pull()


rq_scheduler.cron("*/2 * * * *", func=pull_feeds)


@dramatiq.actor(periodic=cron("* * * * *"), time_limit=600_000)
def rebuild_stats():  # expect: JC303
    print("stats")


# ---- clean ----


@scheduler.scheduled_job("interval", minutes=1)
def poll_one_at_a_time():
    # APScheduler's default max_instances=1: a run is skipped while one is running.
    for device in Device.objects.all():
        device.ping()


@scheduler.scheduled_job("interval", minutes=1, max_instances=1, coalesce=True)
def poll_coalesced():
    print("poll")


@huey.periodic_task(crontab(minute="*"))
@huey.lock_task("check-devices")
def check_devices_locked():
    for device in Device.objects.filter(active=True):
        device.ping()


@huey.periodic_task(crontab(minute="*"))
def check_devices_in_a_lock_block():
    with huey.lock_task("check-devices"):
        for device in Device.objects.filter(active=True):
            device.ping()


def fan_out_feeds():
    # Each row is handed to a queue: the run is quick whatever the table's size.
    for feed in Feed.objects.filter(active=True):
        pull_one.enqueue(feed.id)


rq_scheduler.cron("* * * * *", func=fan_out_feeds)


def pull_one(feed_id):
    print(feed_id)


@huey.periodic_task(crontab(minute="0", hour="4"))
def daily_pull():
    for feed in Feed.objects.all():
        feed.pull()


@dramatiq.actor(periodic=cron("* * * * *"), time_limit=30_000)
def quick_stats():
    print("stats")
