"""A claim recorded in a transaction of its own and given back when the work failed (`release(key)`
deleting the claim row): the key's own row, not work outside its transaction. Other writes
outside it are still reported."""

from celery import shared_task
from django.db import IntegrityError, transaction

from billing.models import Invoice, ProcessedInvoice


def claim(key):
    try:
        with transaction.atomic():
            ProcessedInvoice.objects.create(key=key)
        return True
    except IntegrityError:
        return False


def release(key):
    ProcessedInvoice.objects.filter(key=key).delete()


@shared_task
def notify(invoice_id, backend):
    key = f"notify:{invoice_id}"
    if not claim(key):
        return
    try:
        backend.send(invoice_id)
    except Exception:
        release(key)
        raise


@shared_task
def notify_and_mark(invoice_id, backend):
    key = f"notify:{invoice_id}"
    if not claim(key):
        return
    try:
        backend.send(invoice_id)
    except Exception:
        release(key)
        raise
    Invoice.objects.filter(id=invoice_id).update(notified=True)  # expect: JC103
