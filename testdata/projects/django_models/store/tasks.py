# jobcheck-test: select=JC201
from celery import shared_task

from store.models import Order


@shared_task(autoretry_for=(Exception,), max_retries=3)
def receipt(order_id):
    # A row from the manager is an Order: its method sends the email.
    Order.objects.select_for_update().get(id=order_id).send_receipt()  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def receipt_built_elsewhere(order_id):
    order = Order.objects.get(id=order_id)
    order.send_receipt_via_builder()  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def totals(order_id):
    Order.objects.get(id=order_id).total()
