# jobcheck-test: select=JC303
# Celery beat tasks whose runs can outlast their interval, and the clean forms.
from datetime import timedelta

import redis
from celery import Celery, shared_task
from celery.schedules import crontab
from celery_once import QueueOnce

from .models import Invoice, Order

app = Celery("shop")
r = redis.Redis()
EVERY_MINUTE = crontab(minute="*")


@shared_task(time_limit=600)
def reconcile_payments():  # expect: JC303
    print("reconcile")


@shared_task(soft_time_limit=300)
def refresh_rates():  # expect: JC303
    print("rates")


@shared_task
def send_reminders():  # expect: JC303
    for order in Order.objects.filter(reminded=False):
        order.remind()


@shared_task
def close_stale_orders():  # expect: JC303
    close_each_stale()


def close_each_stale():
    for order in Order.objects.filter(status="open").order_by("created"):
        order.close()


@shared_task
def close_given_orders():  # todo-expect: JC303
    # The query is made here and looped over in a helper: not followed yet.
    close_each(Order.objects.filter(status="open"))


def close_each(orders):
    for order in orders:
        order.close()


# ---- clean ----


@shared_task(time_limit=30)
def quick_ping():
    print("ping")


@shared_task(time_limit=600)
def locked_reconcile():
    with r.lock("reconcile", timeout=600, blocking_timeout=0):
        print("reconcile")


@shared_task(base=QueueOnce, once={"graceful": True}, time_limit=600)
def once_reconcile():
    print("reconcile")


@shared_task
def bounded_batch():
    for invoice in Invoice.objects.filter(sent=False).order_by("id").limit(100):
        invoice.send()


@shared_task
def sliced_batch():
    for invoice in Invoice.objects.filter(sent=False).order_by("id")[:100]:
        invoice.send()


@shared_task
def sliced_batch_in_a_name():
    batch = Order.objects.filter(reminded=False)[:500]
    for order in batch:
        order.remind()


@shared_task
def rows_taken_with_skip_locked():
    for invoice in Invoice.objects.select_for_update(skip_locked=True).filter(sent=False):
        invoice.send()


@shared_task
def nightly_sweep():
    # Daily: a loop over a table does not catch up with a day.
    for order in Order.objects.all():
        order.archive()


@shared_task
def marker_guard():
    if not r.set("sweep-running", "1", nx=True, ex=300):
        return
    for order in Order.objects.all():
        order.close()


app.conf.beat_schedule = {
    "reconcile": {"task": "celery_beat.reconcile_payments", "schedule": 60.0},
    "rates": {"task": "celery_beat.refresh_rates", "schedule": timedelta(minutes=1)},
    "reminders": {"task": "celery_beat.send_reminders", "schedule": EVERY_MINUTE},
    "stale": {"task": "celery_beat.close_stale_orders", "schedule": crontab(minute="*/5")},
    "given": {"task": "celery_beat.close_given_orders", "schedule": 60.0},
    "ping": {"task": "celery_beat.quick_ping", "schedule": 60.0},
    "locked": {"task": "celery_beat.locked_reconcile", "schedule": 60.0},
    "once": {"task": "celery_beat.once_reconcile", "schedule": 60.0},
    "batch": {"task": "celery_beat.bounded_batch", "schedule": 60.0},
    "sliced": {"task": "celery_beat.sliced_batch", "schedule": 60.0},
    "sliced-name": {"task": "celery_beat.sliced_batch_in_a_name", "schedule": 60.0},
    "skip-locked": {"task": "celery_beat.rows_taken_with_skip_locked", "schedule": 60.0},
    "nightly": {"task": "celery_beat.nightly_sweep", "schedule": crontab(minute=0, hour=3)},
    "marker": {"task": "celery_beat.marker_guard", "schedule": 60.0},
}
