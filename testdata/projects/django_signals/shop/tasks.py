# jobcheck-test: select=JC201
from celery import shared_task

from shop import signals
from shop.signals import order_paid, order_viewed


@shared_task(autoretry_for=(Exception,), max_retries=3)
def settle(order_id):
    # `send` runs every receiver here, in this task: the receipt email is this task's effect.
    order_paid.send(sender=None, order_id=order_id)  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def track(order_id):
    order_viewed.send(sender=None, order_id=order_id)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def settle_through_the_module(order_id):
    # The signal named through its module: the same receivers run.
    signals.order_paid.send(sender=None, order_id=order_id)  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def track_through_the_module(order_id):
    signals.order_viewed.send(sender=None, order_id=order_id)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def refund(order_id):
    signals.order_refunded.send(sender=None, order_id=order_id)  # expect: JC201
