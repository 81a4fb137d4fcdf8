# jobcheck-test: select=JC201,JC501
# Django tasks made without decorator syntax: `task(fn)` and `task(priority=...)(fn)`, from
# django.tasks (Django 6.0) and the django_tasks backport. Django does not retry a failed task;
# a backoff decorator on the function does.
import backoff
import requests
from django.tasks import task
from django_tasks import task as backport_task


def _post_invoice(invoice_id):  # expect: JC501
    requests.post("https://ledger.example/invoices", json={"id": invoice_id})  # not retried


@backoff.on_exception(backoff.expo, requests.RequestException, max_tries=3)
def _post_refund(refund_id):  # expect: JC501
    requests.post("https://ledger.example/refunds", json={"id": refund_id})  # expect: JC201


post_invoice = task(_post_invoice)
post_refund = backport_task(priority=5, queue_name="ledger")(_post_refund)


def close_month(invoice_id, refund_id):
    post_invoice.enqueue(invoice_id)
    post_refund.enqueue(refund_id)
