# Celery and Django: the effect, then the write that marks it done. A crash between the two
# leaves the row unmarked, and the next run sends again.
import requests
import stripe
from celery import shared_task
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from shop.models import Invoice, Outbox, Reminder


@shared_task
def send_reminders():
    for reminder in Reminder.objects.filter(sent=False):
        send_mail("Reminder", reminder.body, "shop@example.com", [reminder.email])  # expect: JC401
        reminder.sent = True
        reminder.save()


@shared_task
def notify_partner(invoice_id):
    invoice = Invoice.objects.get(pk=invoice_id)
    requests.post("https://partner.example/invoices", json={"id": invoice.pk})  # expect: JC401
    Invoice.objects.filter(pk=invoice.pk).update(partner_notified_at=timezone.now())


@shared_task
def charge_due():
    for invoice in Invoice.objects.filter(status="due"):
        stripe.Charge.create(amount=invoice.amount, customer=invoice.customer_id)  # expect: JC401
        invoice.status = "paid"
        invoice.save(update_fields=["status"])


@shared_task
def mark_with_update_fields(invoice_id):
    invoice = Invoice.objects.get(pk=invoice_id)
    send_mail("Receipt", "...", "shop@example.com", [invoice.email])  # expect: JC401
    invoice.save(update_fields=["receipt_sent"])


# --- clean idioms ---------------------------------------------------------------------------


@shared_task
def claim_first():
    # A "sending" state saved before the send: a crash leaves the row claimed, not re-selected.
    for reminder in Reminder.objects.filter(status="pending"):
        reminder.status = "sending"
        reminder.save()
        send_mail("Reminder", reminder.body, "shop@example.com", [reminder.email])
        reminder.status = "sent"
        reminder.save()


@shared_task
def marker_then_send_on_commit(reminder_id):
    # The marker is written in the transaction, and the send runs only when it commits.
    with transaction.atomic():
        reminder = Reminder.objects.select_for_update().get(pk=reminder_id)
        reminder.sent = True
        reminder.save()
        transaction.on_commit(lambda: send_mail("Reminder", reminder.body, "shop@example.com", [reminder.email]))


@shared_task
def intent_first(invoice_id):
    # The outbox row is the intent, written with the invoice in one transaction; a relay sends.
    with transaction.atomic():
        invoice = Invoice.objects.get(pk=invoice_id)
        invoice.status = "billed"
        invoice.save()
        Outbox.objects.create(kind="receipt", invoice=invoice)


@shared_task
def key_from_the_row():
    # The provider deduplicates on a key derived from the row: a repeat is refused at the far end.
    for invoice in Invoice.objects.filter(status="due"):
        stripe.Charge.create(amount=invoice.amount, idempotency_key=f"charge-{invoice.pk}")
        invoice.status = "paid"
        invoice.save()


@shared_task
def failure_is_recorded(reminder_id):
    reminder = Reminder.objects.get(pk=reminder_id)
    try:
        send_mail("Reminder", reminder.body, "shop@example.com", [reminder.email])
    except OSError:
        reminder.status = "failed"
        reminder.save()


@shared_task
def state_not_selected_by(invoice_id):
    # A status written after the call that the job never selected by is not its record of it.
    invoice = Invoice.objects.get(pk=invoice_id)
    requests.post("https://partner.example/invoices", json={"id": invoice.pk})
    invoice.status = "archived"
    invoice.save()


@shared_task
def counters_are_not_markers(invoice_id):
    invoice = Invoice.objects.get(pk=invoice_id)
    send_mail("Receipt", "...", "shop@example.com", [invoice.email])
    invoice.emails_sent_count = invoice.emails_sent_count + 1
    invoice.save()


@shared_task
def local_work_only(invoice_id):
    # No external effect: recomputing and marking repeats nothing outside.
    invoice = Invoice.objects.get(pk=invoice_id)
    invoice.total = sum(line.amount for line in invoice.lines.all())
    invoice.processed = True
    invoice.save()
