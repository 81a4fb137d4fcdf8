# Jobs whose facts are known: an effect before its record, a guarded charge, a scheduled job
# with an overlap setting, an actor delivered at least once.
import dramatiq
import stripe
from apscheduler.schedulers.background import BackgroundScheduler
from django.core.mail import send_mail

from shop.models import Reminder

scheduler = BackgroundScheduler()


@dramatiq.actor(max_retries=0)
def send_reminders():
    """
    Reliability:
        Runs twice: TODO - say what a second delivery of the same work does. Effects
            jobcheck found with no idempotency guard - email via mail.send_mail.
        Overlaps: TODO - say whether two runs can overlap and what stops them. jobcheck
            saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Delivery - at-least-once. Effect before record - email via
            mail.send_mail in records.send_reminders, then `sent` written after it.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            Retries are off (max_retries=0).
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    """
    for reminder in Reminder.objects.filter(sent=False):
        send_mail("Reminder", reminder.body, "shop@example.com", [reminder.email])
        reminder.sent = True
        reminder.save()


@dramatiq.actor(max_retries=0)
def charge(order_id, amount):
    """
    Reliability:
        Runs twice: TODO - say what a second delivery of the same work does. jobcheck
            found no unguarded external effect. With a guard - payment via
            stripe.PaymentIntent.create.
        Overlaps: TODO - say whether two runs can overlap and what stops them. jobcheck
            saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Delivery - at-least-once.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            Retries are off (max_retries=0).
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    """
    stripe.PaymentIntent.create(amount=amount, idempotency_key=f"order-{order_id}")


def sweep():
    """
    Reliability:
        Runs twice: TODO - say what a second delivery of the same work does. jobcheck
            found no unguarded external effect.
        Overlaps: TODO - say whether two runs can overlap and what stops them. It runs
            on a schedule. Settings - max_instances=3. jobcheck saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Delivery - at-most-once.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            jobcheck found nothing that retries it.
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    """
    Reminder.objects.filter(sent=True).delete()


scheduler.add_job(sweep, "interval", minutes=5, max_instances=3)
