# jobcheck-test: select=JC501
from celery import shared_task

from shop.models import Invoice, Order


@shared_task
def ship(order_id):  # expect: JC501
    order = Order.objects.get(pk=order_id)
    order.state = "shipped"
    order.save()


@shared_task
def bill(order_id):  # expect: JC501
    _issue(order_id)


def _issue(order_id):
    Invoice.objects.create(number=f"INV-{order_id}")


@shared_task
def purge(number):  # expect: JC501
    Invoice.objects.filter(number=number).delete()
