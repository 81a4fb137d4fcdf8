import requests
from django.db import transaction
from rq import Retry

from accounts.queues import enqueue_path, low


class Receipts:
    def __init__(self):
        self.queue = low

    def send(self, order_id):
        return self.queue.enqueue(self._send, order_id, retry=Retry(max=3, interval=[60, 600]))

    def _send(self, order_id):  # expect: JC501
        requests.post("https://mail.example/receipts", json={"order": order_id})  # expect: JC201


def _charge(order_id):  # expect: JC501
    requests.post("https://psp.example/charges", json={"order": order_id})  # expect: JC201


def charge(order_id):
    return enqueue_path("accounts.billing._charge", order_id)


def _refund(order_id):  # expect: JC501
    requests.post("https://psp.example/refunds", json={"order": order_id})  # expect: JC201


def refund(order_id):
    # Enqueued once the surrounding transaction commits.
    transaction.on_commit(lambda: low.enqueue(_refund, order_id, retry=Retry(max=3, interval=[60, 600])))
