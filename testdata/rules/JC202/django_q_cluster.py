# django-q: a broker that presents failed tasks again (SQS) retries them until max_attempts,
# and max_attempts=0 (the default) is forever.
# jobcheck-test: select=JC202
import requests
from django_q.tasks import async_task

Q_CLUSTER = {  # expect: JC202
    "name": "shop",
    "sqs": {"aws_region": "eu-west-1"},
    "retry": 300,
    "timeout": 240,
}


def push_order(order_id):
    requests.post("https://erp.example.com/orders", json={"id": order_id}, timeout=10)


def checkout(order_id):
    async_task(push_order, order_id)
