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
    for reminder in Reminder.objects.filter(sent=False):
        send_mail("Reminder", reminder.body, "shop@example.com", [reminder.email])
        reminder.sent = True
        reminder.save()


@dramatiq.actor(max_retries=0)
def charge(order_id, amount):
    stripe.PaymentIntent.create(amount=amount, idempotency_key=f"order-{order_id}")


def sweep():
    Reminder.objects.filter(sent=True).delete()


scheduler.add_job(sweep, "interval", minutes=5, max_instances=3)
