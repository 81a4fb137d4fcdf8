# Celery tasks retried automatically, with effects direct and through helpers.
import requests
import stripe
from celery import Celery, shared_task
from django.core.mail import EmailMessage, send_mail

app = Celery("billing")


def tell_customer(address, body):
    msg = EmailMessage("Your invoice", body, to=[address])
    msg.send()


@app.task(autoretry_for=(Exception,), max_retries=3, retry_backoff=True)
def send_invoice(invoice_id, address):
    tell_customer(address, f"invoice {invoice_id}")  # expect: JC201


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5)
def post_webhook(order_id):
    requests.post("https://partner.example/hook", json={"order": order_id})  # expect: JC201


@shared_task(autoretry_for=(Exception,))
def charge(order_id, amount):
    stripe.Charge.create(amount=amount, idempotency_key=f"charge-{order_id}")


@shared_task(max_retries=10, retry_backoff=True)
def dead_retry_settings(address):
    # max_retries with nothing that triggers a retry configures nothing.
    send_mail("hi", "body", "from@example.com", [address])


@shared_task(autoretry_for=(Exception,), max_retries=3)
def put_is_idempotent(order_id):
    requests.put(f"https://partner.example/orders/{order_id}", json={"state": "paid"})


@shared_task(bind=True, max_retries=3)
def retry_before_effect(self, address, ready):
    if not ready:
        raise self.retry(countdown=60)
    send_mail("hi", "body", "from@example.com", [address])


@shared_task(bind=True, max_retries=3)
def retry_after_effect(self, addresses):
    for address in addresses:
        try:
            send_mail("hi", "body", "from@example.com", [address])  # expect: JC201
        except OSError as exc:
            raise self.retry(exc=exc)


# Retry settings written as module-level constants are read through them.
NO_RETRIES = 0
RETRY_LIMIT = 4
RETRY_OPTIONS = {"max_retries": NO_RETRIES}


@shared_task(autoretry_for=(Exception,), max_retries=NO_RETRIES)
def never_retried(order_id):
    requests.post("https://partner.example/hook", json={"order": order_id})


@shared_task(autoretry_for=(Exception,), max_retries=RETRY_LIMIT)
def retried_up_to_the_limit(order_id):
    requests.post("https://partner.example/hook", json={"order": order_id})  # expect: JC201


@shared_task(autoretry_for=(Exception,), retry_kwargs={"max_retries": NO_RETRIES})
def never_retried_by_its_kwargs(order_id):
    requests.post("https://partner.example/hook", json={"order": order_id})


@shared_task(autoretry_for=(Exception,), retry_kwargs=RETRY_OPTIONS)
def never_retried_by_its_options(order_id):
    requests.post("https://partner.example/hook", json={"order": order_id})
