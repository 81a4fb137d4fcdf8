# jobcheck-test: select=JC103,JC201
# Messages here cite lines, and suppressions cover lines: an edit that only moves lines must
# move both with them (tests/test_cache_parallel.py edits every file of every project).
from celery import shared_task
from django.core.mail import send_mail
from django.db import transaction

from billing.models import Invoice, ProcessedInvoice
from billing.notify import tell_partner


def unused_formatting(x):
    # Nothing reaches this helper: edits here move the lines below and change no finding.
    return f"{x:>10}"


@shared_task
def settle(invoice_id):
    with transaction.atomic():
        ProcessedInvoice.objects.create(key=f"settle-{invoice_id}")
    Invoice.objects.filter(id=invoice_id).update(status="settled")  # expect: JC103


@shared_task(bind=True, max_retries=3)
def remind(self, addresses):
    for address in addresses:
        try:
            send_mail("hi", "body", "from@example.com", [address])  # expect: JC201
        except OSError as exc:
            raise self.retry(exc=exc)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def announce(invoice_id):
    # jobcheck: ignore[JC201]
    tell_partner(invoice_id)
    tell_partner(invoice_id + 1)  # expect: JC201
    tell_partner(invoice_id + 2)  # jobcheck: ignore[JC201]
