# jobcheck-test: select=JC201,JC501
# Hooks kept under a name (`setdefault(kind, []).append(fn)`) and fired by a retried task: each
# hook runs inside the task, so the task's retry runs the card charge again.
import requests
from celery import shared_task


class Hooks:
    def __init__(self):
        self._hooks = {}

    def on(self, kind, fn):
        self._hooks.setdefault(kind, []).append(fn)

    def fire(self, kind, payload):
        for fn in self._hooks.get(kind, ()):
            fn(payload)


hooks = Hooks()


@shared_task(autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)
def close_invoice(invoice_id):  # expect: JC501
    hooks.fire("invoice.closed", {"id": invoice_id})  # expect: JC201


def charge_card(payload):  # expect: JC501
    requests.post("https://pay.example/charges", json=payload)


hooks.on("invoice.closed", charge_card)
