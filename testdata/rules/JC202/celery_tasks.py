# Celery: `max_retries=None` is no limit, but only where something retries (autoretry_for, self.retry).
# jobcheck-test: select=JC202
import requests
from celery import Task, shared_task
from django.conf import settings

MAX_RETRIES = 8
RETRY_OPTIONS = getattr(settings, "ERP_RETRY_OPTIONS", None) or {}


@shared_task(autoretry_for=(requests.RequestException,), max_retries=None, retry_backoff=True)  # expect: JC202
def push_order(order_id):
    requests.post("https://erp.example.com/orders", json={"id": order_id}, timeout=10)


@shared_task(bind=True, max_retries=None)  # expect: JC202
def sync_invoice(self, invoice_id):
    try:
        requests.post("https://erp.example.com/invoices", json={"id": invoice_id}, timeout=10)
    except requests.RequestException as exc:
        raise self.retry(exc=exc, countdown=60)


def alert_finance(*args, **kwargs):
    requests.post("https://chat.example.com/finance", json={"text": "invoice export failed"}, timeout=5)


# A failure handler a person sees does not bound it: exhaustion never comes, so it never runs.
@shared_task(autoretry_for=(Exception,), max_retries=None, retry_backoff=True, on_failure=alert_finance)  # expect: JC202
def export_invoices(day):
    requests.post("https://erp.example.com/exports", json={"day": day}, timeout=30)


@shared_task(bind=True, max_retries=None)  # expect: JC202
def refresh_rates(self, currency):
    try:
        requests.get(f"https://rates.example.com/{currency}", timeout=5)
    except requests.Timeout as exc:
        raise self.retry(exc=exc, max_retries=3)
    except requests.RequestException as exc:
        raise self.retry(exc=exc)  # this request takes the task's own limit: none


# Clean: dead configuration (max_retries=None and nothing retries).
@shared_task(max_retries=None)
def rebuild_search_index():
    requests.post("https://search.example.com/rebuild", timeout=60)


# Clean: a count, the default (3), a count held in a name or a setting.
@shared_task(autoretry_for=(requests.RequestException,), max_retries=5, retry_backoff=True)
def push_refund(refund_id):
    requests.post("https://erp.example.com/refunds", json={"id": refund_id}, timeout=10)


@shared_task(bind=True)
def push_customer(self, customer_id):
    try:
        requests.post("https://erp.example.com/customers", json={"id": customer_id}, timeout=10)
    except requests.RequestException as exc:
        raise self.retry(exc=exc)


@shared_task(autoretry_for=(requests.RequestException,), max_retries=MAX_RETRIES, retry_backoff=True)
def push_supplier(supplier_id):
    requests.post("https://erp.example.com/suppliers", json={"id": supplier_id}, timeout=10)


@shared_task(autoretry_for=(requests.RequestException,), retry_kwargs={"max_retries": settings.ERP_RETRIES})
def push_product(product_id):
    requests.post("https://erp.example.com/products", json={"id": product_id}, timeout=10)


# Clean: options from a splat that cannot be read may hold the count.
@shared_task(autoretry_for=(requests.RequestException,), **RETRY_OPTIONS)
def push_category(category_id):
    requests.post("https://erp.example.com/categories", json={"id": category_id}, timeout=10)


# Clean: no limit on the task, but every retry request passes its own count.
@shared_task(bind=True, max_retries=None)
def push_stock(self, sku):
    try:
        requests.post("https://erp.example.com/stock", json={"sku": sku}, timeout=10)
    except requests.RequestException as exc:
        raise self.retry(exc=exc, max_retries=5, countdown=30)


# A base Task class shared by several tasks: the policy is read per task, at its decorator.
class ForeverTask(Task):
    autoretry_for = (Exception,)
    max_retries = None
    retry_backoff = True


@shared_task(base=ForeverTask)  # expect: JC202
def push_shipment(shipment_id):
    requests.post("https://erp.example.com/shipments", json={"id": shipment_id}, timeout=10)


@shared_task(base=ForeverTask)  # expect: JC202
def push_return(return_id):
    requests.post("https://erp.example.com/returns", json={"id": return_id}, timeout=10)
