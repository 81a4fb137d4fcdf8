# Dramatiq: every actor retries (default max_retries=20); `max_retries=None` removes the limit.
# jobcheck-test: select=JC202
import dramatiq
import requests
from django.conf import settings


@dramatiq.actor(max_retries=None)  # expect: JC202
def push_order(order_id):
    requests.post("https://erp.example.com/orders", json={"id": order_id}, timeout=10)


# Clean: the default, a count, a count from a setting, no retries.
@dramatiq.actor
def push_refund(refund_id):
    requests.post("https://erp.example.com/refunds", json={"id": refund_id}, timeout=10)


@dramatiq.actor(max_retries=3, min_backoff=10_000)
def push_invoice(invoice_id):
    requests.post("https://erp.example.com/invoices", json={"id": invoice_id}, timeout=10)


@dramatiq.actor(max_retries=settings.ERP_RETRIES)
def push_customer(customer_id):
    requests.post("https://erp.example.com/customers", json={"id": customer_id}, timeout=10)


@dramatiq.actor(max_retries=0)
def push_stock(sku):
    requests.post("https://erp.example.com/stock", json={"sku": sku}, timeout=10)
