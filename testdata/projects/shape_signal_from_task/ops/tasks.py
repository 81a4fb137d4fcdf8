# jobcheck-test: select=JC201,JC501
from celery import Celery
from celery.schedules import crontab

from ops.signals import hourly, nightly

app = Celery("ops")


@app.task(autoretry_for=(ConnectionError,), max_retries=3)
def tick_hourly():  # expect: JC501
    hourly.send("beat")  # expect: JC201


@app.task(autoretry_for=(ConnectionError,), max_retries=3)
def tick_nightly():  # expect: JC501
    # Every receiver runs in this task: a retry repeats the digest email.
    nightly.send(sender=None)  # expect: JC201


app.conf.beat_schedule = {
    "hourly": {"task": "ops.tasks.tick_hourly", "schedule": crontab(minute=0)},
    "nightly": {"task": "ops.tasks.tick_nightly", "schedule": crontab(minute=0, hour=3)},
}


@app.task
def process_order(order):  # expect: JC501
    from ops.mailer import notify_owner

    notify_owner(order)
