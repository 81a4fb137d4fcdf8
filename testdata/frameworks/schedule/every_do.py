# jobcheck-test: select=JC201,JC501
# schedule, as its documentation writes it: `schedule.every(...)...do(job)`, the same on a
# `Scheduler()`, and the `@repeat(every(...))` decorator. schedule never retries a job, so an
# effect in one is not a retried effect. A `.do(f)` on anything else is not a job.
import functools

import requests
import schedule
from schedule import every, repeat


def job():  # expect: JC501
    requests.post("https://status.example/ping", json={"alive": True})


def greet(name):  # expect: JC501
    print("Hello", name)


def report():  # expect: JC501
    print("report")


def notify(channel, text):  # expect: JC501
    requests.post(f"https://chat.example/{channel}", json={"text": text})


@repeat(every(10).minutes)
def poll():  # expect: JC501
    print("polling")


@repeat(every().day.at("10:30"), "ops")
def morning(team):  # expect: JC501
    print("good morning", team)


def cleanup():
    print("not scheduled")


def refresh_feeds():  # expect: JC501
    print("refresh")


def rotate_logs():  # expect: JC501
    print("rotate")


def schedule_from_config(interval, unit):
    """The unit read from configuration: `getattr(every(n), unit)` is still the job builder."""
    job = getattr(schedule.every(interval), unit)
    job.do(refresh_feeds)


class Chores:
    def do(self, task):
        task()

    def schedule(self, task):
        task()


schedule.every(10).minutes.do(job)
schedule.every().monday.at("10:30").do(greet, name="Alice")
schedule.every().hour.do(functools.partial(notify, "ops", "hourly"))
schedule.every().hour.do(lambda: print("inline"))

scheduler = schedule.Scheduler()
scheduler.every(5).seconds.do(report)
getattr(scheduler.every(1), "day").at("03:00").do(rotate_logs)

Chores().do(cleanup)
Chores().schedule(cleanup)
