# jobcheck-test: select=JC000,JC201,JC501
# Python 3.13 and 3.14 syntax: type parameter defaults (PEP 696), `except` without brackets
# (PEP 758) and a template string (PEP 750), around a retried task that must still be analysed.
import requests
from celery import shared_task


class Box[T = dict]:
    def __init__(self, item: T) -> None:
        self.item = item


@shared_task(autoretry_for=(Exception,), max_retries=3)
def push(order):  # expect: JC501
    note = t"order {order['id']}"
    try:
        requests.post("https://partner.example/orders", json=Box(order).item)  # expect: JC201
    except ValueError, TypeError:
        print("bad order", note)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def fetch(order_id):  # expect: JC501
    try:
        return requests.get(f"https://partner.example/orders/{order_id}").json()
    except KeyError, IndexError:
        return None
