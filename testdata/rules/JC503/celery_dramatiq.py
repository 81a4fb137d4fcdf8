# Five-questions answers the code disproves, on Celery and Dramatiq jobs, and answers it cannot.
import dramatiq
import requests
import stripe
from celery import Celery, shared_task
from celery.schedules import crontab
from django.core.mail import send_mail
from redis import Redis

from shop.models import Order

app = Celery("shop")
redis = Redis()


@dramatiq.actor
def receipt(address):  # expect: JC503
    """Dramatiq retries actors by default: "none" is wrong.

    Reliability:
        Runs twice: not safe; a second run sends a second receipt.
        Overlaps: harmless.
        Dies mid-run: the broker redelivers; the receipt is sent again.
        Retries: none.
        Idempotent: no.
    """
    send_mail("Receipt", "...", "shop@example.com", [address])


@shared_task(autoretry_for=(Exception,), max_retries=3)
def notify_partner(order_id):  # expect: JC503
    """Reliability:
        Can it run twice? Yes - the partner stores the order.
        Can it overlap? Yes, harmlessly.
        What if it dies mid-run? The task is retried.
        Can it retry safely? Yes.
        Is it idempotent? Yes.
    """
    requests.post("https://partner.example/orders", json={"id": order_id})


@shared_task
def charge(order_id):  # expect: JC503
    """Reliability:
        - Runs twice: SAFE
        - Overlaps: harmless
        - Dies mid-run: the order stays unpaid and is charged next run
        - Retries: none configured
        - Idempotent: todo
    """
    order = Order.objects.get(pk=order_id)
    stripe.Charge.create(amount=order.amount, customer=order.customer_id)


@app.task
def nightly_report():  # expect: JC503
    """Reliability:
        Runs twice: safe; the report is rebuilt.
        Overlaps: no.
        Dies mid-run: the next run rebuilds it.
        Retries: none.
        Idempotent: yes.
    """
    Order.objects.filter(status="open").update(reported=True)


app.conf.beat_schedule = {"nightly": {"task": "celery_dramatiq.nightly_report", "schedule": crontab(hour=2)}}


@shared_task
def summarize(order_id):  # expect: JC503
    """Reliability:
        Runs twice: safe; it only reads.
        Overlaps: harmless.
        Dies mid-run: resumes from the last checkpoint.
        Retries: none.
        Idempotent: yes.
    """
    order = Order.objects.get(pk=order_id)
    return sum(line.amount for line in order.lines.all())


# --- answers that hold, or that cannot be checked -------------------------------------------


@shared_task
def charge_with_key(order_id):
    """Reliability:
        Runs twice: safe; Stripe deduplicates on the key.
        Overlaps: harmless; the key makes the second charge a no-op.
        Dies mid-run: resumes; the next run charges with the same key.
        Retries: none.
        Idempotent: yes.
    """
    order = Order.objects.get(pk=order_id)
    stripe.Charge.create(amount=order.amount, idempotency_key=f"order-{order.pk}")


@dramatiq.actor(max_retries=0)
def hedged(address):
    """Reliability:
        Runs twice: yes, but it sends the email twice.
        Overlaps: no, if one worker runs the queue.
        Dies mid-run: acks_late: the broker redelivers and it resumes.
        Can it retry safely? No.
        Idempotent: mostly.
    """
    send_mail("Receipt", "...", "shop@example.com", [address])


@app.task
def locked_sweep():
    """Reliability:
        Runs twice: safe.
        Overlaps: no; a Redis lock with a timeout keeps one run.
        Dies mid-run: the lock expires; the next run resumes.
        Retries: none.
        Idempotent: yes.
    """
    with redis.lock("sweep", timeout=600):
        Order.objects.filter(status="stale").delete()


app.conf.beat_schedule["sweep"] = {"task": "celery_dramatiq.locked_sweep", "schedule": 300}


@shared_task
def enqueues_only(order_id):
    """Whether a repeat harms is the enqueued job's answer: not checked here.

    Reliability:
        Runs twice: safe.
        Overlaps: harmless.
        Dies mid-run: the broker redelivers.
        Retries: none.
        Idempotent: yes.
    """
    receipt.send(order_id)


@shared_task(autoretry_for=(requests.ConnectionError,), max_retries=3)
def retried_on_a_named_error(order_id):
    """Where a named error can come from decides what a retry repeats (JC201's question).

    Reliability:
        Runs twice: not safe; the partner gets the order twice.
        Overlaps: harmless.
        Dies mid-run: the broker redelivers.
        Retries: safe; the connection error comes before the partner acts.
        Idempotent: no.
    """
    requests.post("https://partner.example/orders", json={"id": order_id})


@shared_task
def far_end_deduplicates(order_id):
    """Reliability:
        Can it run twice? Yes - the partner deduplicates on the order id.
        Overlaps: harmless.
        Dies mid-run: the broker redelivers.
        Retries: none.
        Idempotent: yes; the partner ignores repeats.
    """
    requests.post("https://partner.example/orders", json={"id": order_id})


@shared_task
def wording_it_cannot_read(order_id):
    """Reliability:
        Runs twice: well, that depends on the partner.
        Overlaps: rarely.
        Dies mid-run: a person looks at the dashboard.
        Retries: see the settings module.
        Idempotent: as far as we know.
    """
    requests.post("https://partner.example/orders", json={"id": order_id})
