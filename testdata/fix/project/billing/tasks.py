"""Billing jobs: a Task class, a scheduled job, and a tenacity-retried helper job."""
import stripe
from celery import Celery, Task

from billing.notify import tell_customer

app = Celery("billing")
app.conf.beat_schedule = {
    "nightly": {"task": "billing.tasks.nightly_reminders", "schedule": 86400.0},
}


class ChargeTask(Task):
    autoretry_for = (Exception,)
    max_retries = 5
    retry_backoff = True
    acks_late = True

    def run(self, invoice_id, address):
        stripe.PaymentIntent.create(amount=100, idempotency_key=f"invoice-{invoice_id}")
        tell_customer(address, f"charged invoice {invoice_id}")


@app.task
def nightly_reminders(addresses):
    """Remind every customer with an open invoice."""
    for address in addresses:
        tell_customer(address, "you have an open invoice")
