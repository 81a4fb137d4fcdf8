# jobcheck-test: select=JC501
# A scheduled wrapper of the application's own that runs a callable it is given in `args=` or
# `kwargs=` (`add_job(run_with_lock, args=(send_digest, key))`): the callable runs on that schedule too. A
# function in `args=` the wrapper only passes along as data is no job.
import requests
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger

scheduler = BackgroundScheduler()


def run_with_lock(func, key, *args):  # expect: JC501
    if not take(key):
        return None
    try:
        return func(*args)
    finally:
        give_back(key)


def take(key):
    return requests.post("https://locks.example/take", json={"key": key}).ok


def give_back(key):
    requests.post("https://locks.example/release", json={"key": key})


def send_digest(user):  # expect: JC501
    requests.post("https://mail.example/send", json={"user": user})


def record(handler, user):  # expect: JC501
    requests.post("https://audit.example/records", json={"handler": handler.__name__, "user": user})


def rebuild_index(user):  # expect: JC501
    requests.post("https://search.example/rebuild", json={"user": user})


def describe(user):
    return user


def schedule(user, crontime):
    scheduler.add_job(run_with_lock, trigger=CronTrigger.from_crontab(crontime), args=(send_digest, "digest", user))
    scheduler.add_job(record, "interval", minutes=5, args=(describe, user))
    scheduler.add_job(run_with_lock, "interval", hours=1, kwargs={"func": rebuild_index, "key": "index"})
