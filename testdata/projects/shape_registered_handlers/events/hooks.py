# jobcheck-test: select=JC201,JC501
# Hooks fired by a retried task, each listed beside it as dispatched. One kept under a name
# (`setdefault(kind, []).append(fn)`) runs when its name is fired: which fire runs it depends on
# the name, so its effects are not taken for every fire's. One kept for every fire
# (`self._always.append(fn)`) runs inside each: the task's retry runs its POST again.
import requests
from celery import shared_task


class Hooks:
    def __init__(self):
        self._hooks = {}
        self._always = []

    def on(self, kind, fn):
        self._hooks.setdefault(kind, []).append(fn)

    def always(self, fn):
        self._always.append(fn)

    def fire(self, kind, payload):
        for fn in self._hooks.get(kind, ()):
            fn(payload)
        for fn in self._always:
            fn(payload)


hooks = Hooks()


@shared_task(autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)
def close_invoice(invoice_id):  # expect: JC501
    hooks.fire("invoice.closed", {"id": invoice_id})  # expect: JC201


def charge_card(payload):
    requests.post("https://pay.example/charges", json=payload)


def record_event(payload):
    requests.post("https://audit.example/events", json=payload)


hooks.on("invoice.closed", charge_card)
hooks.always(record_event)
