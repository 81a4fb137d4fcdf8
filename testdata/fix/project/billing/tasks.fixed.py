"""Billing jobs: a Task class, a scheduled job, and a tenacity-retried helper job."""
import stripe
from celery import Celery, Task

from billing.notify import tell_customer

app = Celery("billing")
app.conf.beat_schedule = {
    "nightly": {"task": "billing.tasks.nightly_reminders", "schedule": 86400.0},
}


class ChargeTask(Task):
    """
    Operations:
        Runs twice: TODO - say what a second delivery of the same work does. Effects
            jobcheck found with no idempotency guard - email via notify.tell_customer ->
            EmailMessage().send. With a guard - payment via stripe.PaymentIntent.create.
        Overlaps: TODO - say whether two runs can overlap and what stops them. jobcheck
            saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Settings - acks_late=True. Delivery - at-least-once.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            Retried as configured (autoretry_for=(Exception,), max_retries=5,
            retry_backoff=True) - at most 5 retries, exponential backoff.
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    """
    autoretry_for = (Exception,)
    max_retries = 5
    retry_backoff = True
    acks_late = True

    def run(self, invoice_id, address):
        stripe.PaymentIntent.create(amount=100, idempotency_key=f"invoice-{invoice_id}")
        tell_customer(address, f"charged invoice {invoice_id}")


@app.task
def nightly_reminders(addresses):
    """Remind every customer with an open invoice.

    Operations:
        Runs twice: TODO - say what a second delivery of the same work does. Effects
            jobcheck found with no idempotency guard - email via notify.tell_customer ->
            EmailMessage().send.
        Overlaps: TODO - say whether two runs can overlap and what stops them. It runs
            on a schedule. jobcheck saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Delivery - at-most-once.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            jobcheck found nothing that retries it.
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    """
    for address in addresses:
        tell_customer(address, "you have an open invoice")
