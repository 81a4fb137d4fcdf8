# `@transaction.atomic` on the helpers a job calls: a helper that records the key and writes in
# its own transaction is safe; a key recorded by one atomic helper and a write made after it are
# in two transactions; a function always called inside an atomic helper is inside its transaction.
from celery import shared_task
from django.db import transaction

from billing.models import Invoice, Ledger, ProcessedInvoice


@transaction.atomic
def record_and_settle(invoice_id):
    ProcessedInvoice.objects.create(key=f"settle-{invoice_id}")
    Invoice.objects.filter(id=invoice_id).update(status="settled")


@shared_task
def settle(invoice_id):
    record_and_settle(invoice_id)


@transaction.atomic
def record_key(invoice_id):
    ProcessedInvoice.objects.create(key=f"void-{invoice_id}")


@shared_task
def void(invoice_id):
    record_key(invoice_id)
    Invoice.objects.filter(id=invoice_id).update(status="void")  # expect: JC103


@transaction.atomic
def post_ledger(invoice_id):
    Ledger.objects.create(invoice_id=invoice_id, amount=1)


@shared_task
def pay(invoice_id):
    with transaction.atomic():
        ProcessedInvoice.objects.create(key=f"pay-{invoice_id}")
    post_ledger(invoice_id)  # expect: JC103


def _refund(invoice_id):
    ProcessedInvoice.objects.create(key=f"refund-{invoice_id}")
    Invoice.objects.filter(id=invoice_id).update(status="refunded")


@transaction.atomic
def refund_atomically(invoice_id):
    _refund(invoice_id)


@shared_task
def refund(invoice_id):
    refund_atomically(invoice_id)


# A helper that records its key and writes its own rows in one transaction is idempotent by
# itself: its key dedups the rows it makes (a fallback notice created once), not the job's claim
# and status writes around it, which the key never gates.
def create_reminders(invoice_ids):
    for invoice_id in invoice_ids:
        with transaction.atomic():
            if Ledger.objects.filter(dedupe_key=f"remind-{invoice_id}").exists():
                continue
            Ledger.objects.create(invoice_id=invoice_id, dedupe_key=f"remind-{invoice_id}")
            Invoice.objects.filter(id=invoice_id).update(reminded=True)


@shared_task
def remind(invoice_ids):
    Invoice.objects.filter(id__in=invoice_ids, status="due").update(status="reminding")
    create_reminders(invoice_ids)
    Invoice.objects.filter(id__in=invoice_ids).update(status="due")
