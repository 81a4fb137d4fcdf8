# jobcheck-test: select=JC104
# `task_acks_late` in the app's configuration applies to every task that does not set acks_late.
import stripe
from celery import Celery

app = Celery("billing")
app.conf.task_acks_late = True


@app.task
def pay_invoice(invoice_id):
    stripe.Invoice.pay(invoice_id)  # expect: JC104


@app.task(acks_late=False)
def pay_invoice_early_ack(invoice_id):
    stripe.Invoice.pay(invoice_id)


@app.task
def pay_invoice_keyed(invoice_id):
    stripe.Invoice.pay(invoice_id, idempotency_key=f"pay-{invoice_id}")
