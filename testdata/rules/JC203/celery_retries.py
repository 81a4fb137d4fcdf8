# Celery retries that come back at once, and the ways of waiting between them.
import random

import requests
from celery import Celery, Task, shared_task

app = Celery("shop")

RETRY_DELAY = 120


@app.task(bind=True, autoretry_for=(requests.RequestException,), retry_backoff=False, default_retry_delay=0, max_retries=5)  # expect: JC203
def push_order(self, order_id):
    requests.post("https://erp.example.com/orders", json={"id": order_id}, timeout=10)


@shared_task(autoretry_for=(ConnectionError,), retry_kwargs={"max_retries": 8, "countdown": 0})  # expect: JC203
def sync_stock(sku):
    requests.get(f"https://stock.example.com/{sku}", timeout=5)


@shared_task(autoretry_for=(ConnectionError,), default_retry_delay=0.2)  # expect: JC203
def ping_partner(partner_id):
    requests.get(f"https://partners.example.com/{partner_id}", timeout=5)


@shared_task(bind=True, max_retries=5)
def explicit_zero_countdown(self, invoice_id):
    try:
        requests.post("https://erp.example.com/invoices", json={"id": invoice_id}, timeout=10)
    except requests.RequestException as exc:
        raise self.retry(exc=exc, countdown=0)  # expect: JC203


@shared_task(bind=True, max_retries=5, default_retry_delay=0)  # expect: JC203
def explicit_default_zero(self, invoice_id):
    try:
        requests.post("https://erp.example.com/invoices", json={"id": invoice_id}, timeout=10)
    except requests.RequestException as exc:
        raise self.retry(exc=exc)


class ImpatientTask(Task):
    autoretry_for = (ConnectionError,)
    default_retry_delay = 0
    max_retries = 10


@app.task(base=ImpatientTask)  # expect: JC203
def via_base_class(report_id):
    requests.get(f"https://reports.example.com/{report_id}", timeout=5)


class PollUpstream(Task):  # expect: JC203
    autoretry_for = (ConnectionError,)
    default_retry_delay = 0

    def run(self, job_id):
        requests.get(f"https://upstream.example.com/{job_id}", timeout=5)


# Clean: Celery's default delay (180 s), exponential backoff, a real constant delay, a growing
# countdown, a single immediate retry, no retries, and retry settings nothing triggers.

@shared_task(autoretry_for=(ConnectionError,), max_retries=5)
def default_delay(sku):
    requests.get(f"https://stock.example.com/{sku}", timeout=5)


@shared_task(autoretry_for=(ConnectionError,), retry_backoff=True, retry_backoff_max=600, default_retry_delay=0)
def exponential(sku):
    requests.get(f"https://stock.example.com/{sku}", timeout=5)


@shared_task(autoretry_for=(ConnectionError,), default_retry_delay=30)
def constant_thirty_seconds(sku):
    requests.get(f"https://stock.example.com/{sku}", timeout=5)


@shared_task(autoretry_for=(ConnectionError,), default_retry_delay=RETRY_DELAY)
def constant_from_a_name(sku):
    requests.get(f"https://stock.example.com/{sku}", timeout=5)


@shared_task(autoretry_for=(ConnectionError,), retry_backoff=BACKOFF, default_retry_delay=0)
def backoff_from_an_unread_name(sku):
    requests.get(f"https://stock.example.com/{sku}", timeout=5)


@shared_task(bind=True, max_retries=5)
def growing_countdown(self, invoice_id):
    try:
        requests.post("https://erp.example.com/invoices", json={"id": invoice_id}, timeout=10)
    except requests.RequestException as exc:
        raise self.retry(exc=exc, countdown=min(600, 10 * 2 ** self.request.retries) + random.uniform(0, 5))


@shared_task(bind=True, max_retries=5, default_retry_delay=0)
def explicit_countdown_over_a_zero_default(self, invoice_id):
    try:
        requests.post("https://erp.example.com/invoices", json={"id": invoice_id}, timeout=10)
    except requests.RequestException as exc:
        raise self.retry(exc=exc, countdown=60)


@shared_task(bind=True, max_retries=5)
def explicit_eta(self, invoice_id, at):
    raise self.retry(eta=at, countdown=0)


@shared_task(bind=True, max_retries=1)
def one_immediate_retry(self, invoice_id):
    raise self.retry(countdown=0)


@shared_task(bind=True, max_retries=5)
def one_immediate_retry_at_the_call(self, invoice_id):
    raise self.retry(countdown=0, max_retries=1)


@shared_task(autoretry_for=(ConnectionError,), default_retry_delay=0, max_retries=0)
def retries_off(sku):
    requests.get(f"https://stock.example.com/{sku}", timeout=5)


@shared_task(max_retries=5, default_retry_delay=0)
def dead_configuration(sku):
    requests.get(f"https://stock.example.com/{sku}", timeout=5)


@shared_task
def no_retries(sku):
    requests.get(f"https://stock.example.com/{sku}", timeout=5)
