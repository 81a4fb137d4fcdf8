# jobcheck-test: select=JC201,JC501
# Celery beat, as its documentation writes it: `beat_schedule` entries naming the task by string,
# by `task.name` or by signature (`.s()` / `.si()`), the old `CELERYBEAT_SCHEDULE`, a config class,
# and `add_periodic_task` in an `on_after_configure` handler. The handler itself is not a job.
from celery import Celery
from celery.schedules import crontab

app = Celery("shop")


@app.task
def expire_carts():  # expect: JC501
    print("expired")


@app.task(name="shop.reports.weekly")
def weekly_report():  # expect: JC501
    print("report")


@app.task
def ping(host):  # expect: JC501
    print(host)


@app.task
def say(what):  # expect: JC501
    print(what)


@app.task
def rotate_keys():  # expect: JC501
    print("rotated")


@app.task
def vacuum(table):  # expect: JC501
    print(table)


def not_a_task():
    print("plain function")


app.conf.beat_schedule = {
    "expire-carts": {"task": "beat_schedule.expire_carts", "schedule": 300.0},
    "weekly-report": {"task": weekly_report.name, "schedule": crontab(hour=7, minute=30, day_of_week=1)},
    "ping-db": {"task": ping.s("db.internal"), "schedule": 60.0},
    "unknown": {"task": "billing.tasks.not_here", "schedule": 60.0},
}

CELERYBEAT_SCHEDULE = {
    "rotate": {"task": "shop.reports.weekly", "schedule": crontab(minute=0, hour=0)},
    "vacuum": {"task": vacuum.si("orders"), "schedule": crontab(minute=30, hour=4)},
}


class BeatConfig:
    beat_schedule = {"rotate-keys": {"task": "beat_schedule.rotate_keys", "schedule": 3600.0}}


@app.on_after_configure.connect
def setup_periodic_tasks(sender, **kwargs):
    sender.add_periodic_task(10.0, say.s("hello"), name="add every 10")
