# Guards that make an effect safe to repeat, and retry scopes that never repeat it.
import requests
from celery import shared_task
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import transaction

from shop.models import Invoice, Outbox, SentEmail


@shared_task(autoretry_for=(Exception,), max_retries=3)
def key_in_same_transaction(invoice_id, address):
    with transaction.atomic():
        _, created = SentEmail.objects.get_or_create(key=f"invoice-{invoice_id}")
        if not created:
            return
        send_mail("Invoice", "body", "from@example.com", [address])


@shared_task(autoretry_for=(Exception,), max_retries=3)
def marker_first(invoice_id, address):
    if not cache.add(f"invoice-mail-{invoice_id}", 1, timeout=86400):
        return
    send_mail("Invoice", "body", "from@example.com", [address])


@shared_task(autoretry_for=(Exception,), max_retries=3)
def through_outbox(invoice_id, address):
    # The job only writes the outbox row; a relay sends it.
    with transaction.atomic():
        Invoice.objects.filter(id=invoice_id).update(status="sent")
        Outbox.objects.create(key=f"invoice-{invoice_id}", kind="email", payload={"to": address})


@shared_task(bind=True, max_retries=5)
def retry_in_other_branch(self, invoice_id, address, ready):
    if ready:
        send_mail("Invoice", "body", "from@example.com", [address])
    else:
        raise self.retry(countdown=30)


@shared_task(bind=True, max_retries=5)
def retry_after_send(self, invoice_id, address):
    send_mail("Invoice", "body", "from@example.com", [address])  # expect: JC201
    if not Invoice.objects.filter(id=invoice_id).update(status="sent"):
        raise self.retry(countdown=30)


@shared_task(bind=True, max_retries=5)
def send_all(self, addresses):
    for address in addresses:
        if not address:
            raise self.retry(countdown=30)
        send_mail("Invoice", "body", "from@example.com", [address])  # expect: JC201


@shared_task(autoretry_for=(Invoice.DoesNotExist,), max_retries=3)
def specific_exception_before_effect(invoice_id, address):
    invoice = Invoice.objects.get(id=invoice_id)
    send_mail("Invoice", f"{invoice.total}", "from@example.com", [address])


@shared_task(autoretry_for=(requests.ConnectionError,), max_retries=3)
def effects_library_exception(order_id):
    requests.post("https://partner.example/orders", json={"order": order_id})  # expect: JC201


def audit(order_id):
    Invoice.objects.filter(id=order_id).update(audited=True)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def retries_without_external_effects(order_id):
    # Database writes roll back or repeat harmlessly here; no external effect is repeated.
    audit(order_id)
