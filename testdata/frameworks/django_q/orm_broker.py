# jobcheck-test: select=JC201,JC501
# django-q2 with the ORM broker: it supports delivery receipts, so a task that fails is not
# acknowledged and is presented again after `retry` seconds, up to `max_attempts` — an email sent
# before the failure is sent again. `ack_failure=True` on the task acknowledges failures instead.
import requests
from django.core.mail import send_mail
from django_q.tasks import async_task

Q_CLUSTER = {
    "name": "shop",
    "orm": "default",
    "retry": 120,
    "timeout": 90,
    "max_attempts": 3,
}


def send_invoice(invoice_id, address):  # expect: JC501
    send_mail("Invoice", f"#{invoice_id}", "shop@example.com", [address])  # expect: JC201
    requests.post("https://ledger.example/invoices", json={"id": invoice_id})  # expect: JC201


def send_survey(address):  # expect: JC501
    send_mail("Survey", "Tell us", "shop@example.com", [address])


def checkout(invoice_id, address):
    async_task(send_invoice, invoice_id, address)
    async_task("orm_broker.send_survey", address, ack_failure=True)
