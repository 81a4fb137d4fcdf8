# jobcheck-test: select=JC104
# Celery: acks_late=True (per task or in the app's configuration) makes a task at least once, so
# a worker that dies after the charge runs it again. Acknowledged early and not retried, a task is
# at most once: the same call is quiet there.
import stripe
from celery import Celery

app = Celery("shop")


@app.task(acks_late=True)
def charge_order(order_id, customer, amount):
    stripe.Charge.create(customer=customer, amount=amount)  # expect: JC104


@app.task(acks_late=True)
def charge_order_keyed(order_id, customer, amount):
    stripe.Charge.create(customer=customer, amount=amount, idempotency_key=f"charge-{order_id}")


@app.task
def charge_once(order_id, customer, amount):
    stripe.Charge.create(customer=customer, amount=amount)


@app.task(autoretry_for=(stripe.error.APIConnectionError,), max_retries=3, retry_backoff=True)
def refund_order(order_id, charge):
    stripe.Refund.create(charge=charge)  # expect: JC104


@app.task(bind=True, acks_late=False)
def capture_order(self, intent_id):
    stripe.PaymentIntent.capture(intent_id)


def charge_from_a_view(customer, amount):
    stripe.Charge.create(customer=customer, amount=amount)
