# Retry decorators on what a job calls: tenacity retries forever with no `stop`, backoff with
# neither max_tries nor max_time, `retrying` with no stop_*.
# jobcheck-test: select=JC202
import backoff
import requests
import retrying
import stamina
import tenacity
from celery import shared_task
from tenacity import retry, stop_after_attempt, stop_after_delay, wait_random_exponential

MAX_ATTEMPTS = int("5")
RETRY_OPTIONS = {"stop": stop_after_attempt(3), "reraise": True}


@retry(wait=wait_random_exponential(multiplier=1, max=60))  # expect: JC202
def fetch_rates():
    return requests.get("https://rates.example.com/latest", timeout=5).json()


@tenacity.retry  # expect: JC202
def fetch_catalog():
    return requests.get("https://catalog.example.com/all", timeout=5).json()


@backoff.on_exception(backoff.expo, requests.RequestException)  # expect: JC202
def fetch_customer(customer_id):
    return requests.get(f"https://crm.example.com/{customer_id}", timeout=5).json()


@retrying.retry(wait_exponential_multiplier=1000)  # expect: JC202
def fetch_stock(sku):
    return requests.get(f"https://stock.example.com/{sku}", timeout=5).json()


@stamina.retry(on=requests.RequestException, attempts=None)  # expect: JC202
def fetch_prices(sku):
    return requests.get(f"https://prices.example.com/{sku}", timeout=5).json()


# Clean: a count, a count held in a name, a time limit, options from a splat, stamina's default.
@retry(stop=stop_after_attempt(5), wait=wait_random_exponential(multiplier=1, max=60))
def fetch_invoice(invoice_id):
    return requests.get(f"https://erp.example.com/invoices/{invoice_id}", timeout=5).json()


@retry(stop=stop_after_attempt(MAX_ATTEMPTS))
def fetch_supplier(supplier_id):
    return requests.get(f"https://erp.example.com/suppliers/{supplier_id}", timeout=5).json()


@retry(stop=stop_after_delay(60))
def fetch_order(order_id):
    return requests.get(f"https://erp.example.com/orders/{order_id}", timeout=5).json()


@retry(**RETRY_OPTIONS)
def fetch_refund(refund_id):
    return requests.get(f"https://erp.example.com/refunds/{refund_id}", timeout=5).json()


@backoff.on_exception(backoff.expo, requests.RequestException, max_time=300)
def fetch_contact(contact_id):
    return requests.get(f"https://crm.example.com/contacts/{contact_id}", timeout=5).json()


@retrying.retry(stop_max_attempt_number=4, wait_exponential_multiplier=1000)
def fetch_reservation(reservation_id):
    return requests.get(f"https://stock.example.com/reservations/{reservation_id}", timeout=5).json()


@stamina.retry(on=requests.RequestException)
def fetch_tax(code):
    return requests.get(f"https://tax.example.com/{code}", timeout=5).json()


# A retried function is checked as a job of its own, called by a job or not.
@retry  # expect: JC202
def probe_health():
    return requests.get("https://erp.example.com/health", timeout=5).ok


# Polling for a result with no stop: `retry_if_result` goes round while the export is still
# running, forever if it never ends (an exception is raised at once).
@retry(retry=tenacity.retry_if_result(lambda status: status == "running"), wait=tenacity.wait_fixed(5))  # expect: JC202
def export_status(export_id):
    return requests.get(f"https://exports.example.com/{export_id}", timeout=5).json()["status"]


@retry(retry=tenacity.retry_if_result(lambda status: status == "running"), stop=stop_after_delay(600),
       wait=tenacity.wait_fixed(5))
def export_status_bounded(export_id):  # the same poll, given up after ten minutes
    return requests.get(f"https://exports.example.com/{export_id}", timeout=5).json()["status"]


@shared_task
def nightly_sync():
    export_status(1)
    export_status_bounded(1)
    fetch_rates()
    fetch_catalog()
    fetch_customer(1)
    fetch_stock("a")
    fetch_prices("a")
    fetch_invoice(1)
    fetch_supplier(1)
    fetch_order(1)
    fetch_refund(1)
    fetch_contact(1)
    fetch_reservation(1)
    fetch_tax("x")


@retry(wait=wait_random_exponential(multiplier=1, max=60))
def stream_rates():
    """A generator: calling it returns the generator before its body runs, so nothing is retried."""
    for page in range(3):
        yield requests.get(f"https://rates.example.com/page/{page}", timeout=5).json()


@retrying.retry(wait_exponential_multiplier=1000, wait_exponential_max=10000)
async def list_members(group):
    """`retrying` knows no coroutines: it calls this once, gets a coroutine back without an
    exception, and never runs it again (tenacity, backoff and stamina await it, and retry)."""
    return requests.get(f"https://groups.example.com/{group}/members", timeout=5).json()


@retry(wait=wait_random_exponential(multiplier=1, max=60))  # expect: JC202
async def list_owners(group):
    return requests.get(f"https://groups.example.com/{group}/owners", timeout=5).json()
