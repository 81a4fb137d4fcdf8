# Guards that make an effect safe to repeat, and retry scopes that never repeat it.
import smtplib

import requests
from celery import shared_task
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import DatabaseError, transaction

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


class LockTimeout(Exception):
    pass


def locked_send(address):
    send_mail("Invoice", "body", "from@example.com", [address])


@shared_task(bind=True, max_retries=5)
def retry_on_lock_timeout(self, address):
    # The application's own exception comes from its raise statements, not from the send.
    try:
        locked_send(address)
    except LockTimeout:
        self.retry()


@shared_task(bind=True, max_retries=5)
def retry_on_smtp_error(self, address):
    try:
        send_mail("Invoice", "body", "from@example.com", [address])  # expect: JC201
    except OSError as exc:
        raise self.retry(exc=exc)


@shared_task(autoretry_for=(DatabaseError,), max_retries=5)
def database_error_after_post(order_id):
    # The log row written after the POST can fail and retry the POST.
    requests.post("https://partner.example/orders", json={"order": order_id})  # expect: JC201
    Invoice.objects.create(order_id=order_id, posted=True)


def record_posted(order_id):
    Invoice.objects.filter(order_id=order_id).update(posted=True)


def load_invoice(order_id):
    return Invoice.objects.get(id=order_id)


@shared_task(autoretry_for=(DatabaseError,), max_retries=5)
def database_error_in_a_helper_after_post(order_id):
    # A helper of the application's that writes the database raises its errors too.
    requests.post("https://partner.example/orders", json={"order": order_id})  # expect: JC201
    record_posted(order_id)


@shared_task(autoretry_for=(DatabaseError,), max_retries=5)
def database_error_in_a_helper_before_post(order_id):
    load_invoice(order_id)
    requests.post("https://partner.example/orders", json={"order": order_id})


def fetch_rates(url):
    session = requests.Session()
    return session.get(url).json()


@shared_task(autoretry_for=(DatabaseError,), max_retries=5)
def database_error_not_from_http(order_id):
    # A requests session is no database session: nothing after the POST raises a database error.
    requests.post("https://partner.example/orders", json={"order": order_id})
    fetch_rates("https://rates.example/today")


@shared_task(autoretry_for=(DatabaseError,), max_retries=5)
def database_error_only_before(order_id):
    invoice = Invoice.objects.get(id=order_id)
    if invoice.posted:
        return
    requests.post("https://partner.example/orders", json={"order": order_id})


@shared_task(autoretry_for=(DatabaseError,), max_retries=5)
def returns_after_enqueue(order_id, failed):
    try:
        response = requests.post("https://partner.example/orders", json={"order": order_id}, headers={"Idempotency-Key": str(order_id)})
        if failed:
            retry_after_send.apply_async(args=(order_id, "x"), countdown=60)
            return "retry-via-celery"
        return response.status_code
    except requests.RequestException:
        Invoice.objects.create(order_id=order_id, posted=False)


@shared_task(autoretry_for=(smtplib.SMTPException,), max_retries=3)
def django_mail_raises_smtp_errors(address):
    # Django's mail functions raise the SMTP errors of the connection underneath.
    send_mail("Invoice", "body", "from@example.com", [address])  # expect: JC201


@shared_task(autoretry_for=(smtplib.SMTPException,), max_retries=3)
def smtp_errors_from_a_post(order_id):
    # An SMTP error cannot come out of an HTTP call: nothing retries the POST.
    requests.post("https://partner.example/orders", json={"order": order_id})
