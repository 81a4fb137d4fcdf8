# jobcheck-test: select=JC000,JC201,JC501
# Python 3.12 f-strings (PEP 701: the same quotes nested) next to a retried task.
import requests
from celery import shared_task


@shared_task(autoretry_for=(Exception,), max_retries=3)
def push(order):  # expect: JC501
    requests.post(f"https://partner.example/orders/{order["id"]}", json=order)  # expect: JC201
