# jobcheck-test: select=JC203
# The `retrying` package's @retry (times in milliseconds): immediate retries, and the clean idioms.
import retrying
import requests
from retrying import retry

ATTEMPTS = 5
WAIT_MS = 2000


@retry(stop_max_attempt_number=5)  # expect: JC203
def upload_certificate(cert):
    return requests.post("https://acm.example.com/import", json=cert, timeout=5)


@retry  # expect: JC203
def poll_forever():
    return requests.get("https://status.example.com", timeout=5)


@retrying.retry(stop_max_attempt_number=25, wait_fixed=200)  # expect: JC203
def fetch_order(order_id):
    return requests.get(f"https://orders.example.com/{order_id}", timeout=5)


@retry(stop_max_attempt_number=5, wait_fixed=2000)
def fetch_invoice(invoice_id):
    return requests.get(f"https://billing.example.com/{invoice_id}", timeout=5)


@retry(stop_max_attempt_number=5, wait_exponential_multiplier=1000, wait_exponential_max=60000)
def fetch_customer(customer_id):
    return requests.get(f"https://crm.example.com/{customer_id}", timeout=5)


@retry(stop_max_attempt_number=ATTEMPTS, wait_fixed=WAIT_MS)
def fetch_rates():
    return requests.get("https://rates.example.com", timeout=5)


@retry(stop_max_attempt_number=2)
def ping_once_more():
    return requests.get("https://ping.example.com", timeout=5)


@retry(stop_max_delay=30000, wait_random_min=1000, wait_random_max=5000)
def fetch_prices():
    return requests.get("https://prices.example.com", timeout=5)
