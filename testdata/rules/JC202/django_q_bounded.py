# django-q: clean, max_attempts bounds the redelivery.
# jobcheck-test: select=JC202
import requests
from django_q.tasks import async_task

Q_CLUSTER = {
    "name": "shop",
    "sqs": {"aws_region": "eu-west-1"},
    "retry": 300,
    "timeout": 240,
    "max_attempts": 5,
}


def push_order(order_id):
    requests.post("https://erp.example.com/orders", json={"id": order_id}, timeout=10)


def checkout(order_id):
    async_task(push_order, order_id)
