# jobcheck-test: select=JC201,JC501
# A Django task enqueued from a job that is retried: each retry enqueues it again, as `delay()`
# of a Celery task would. Not reported yet: `t.using(...).enqueue(...)` names `t.using()`, not
# the task.
from celery import shared_task
from django.tasks import task


@task
def notify(order_id):
    """Tell the customer the order shipped.

    Reliability:
        Runs twice: safe; the Notification row for order_id is checked first.
        Overlaps: no; the row is created with a unique order_id before sending.
        Dies mid-run: the row is committed before the send; a rerun finds it.
        Retries: none; Django tasks are not retried.
        Idempotent: yes; keyed by order_id.
    """
    print("notify", order_id)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def ship(order_id):  # expect: JC501
    notify.enqueue(order_id)  # expect: JC201
    notify.using(priority=5).enqueue(order_id)  # todo-expect: JC201
    raise_if_carrier_down(order_id)


def raise_if_carrier_down(order_id):
    if order_id < 0:
        raise RuntimeError("carrier down")
