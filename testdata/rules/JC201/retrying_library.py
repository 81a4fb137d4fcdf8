# jobcheck-test: select=JC201
# The `retrying` package's @retry repeats what ran before the failure, as tenacity's does.
import requests
from retrying import retry


@retry(stop_max_attempt_number=3, wait_fixed=2000)
def notify_partner(order):
    requests.post("https://partner.example.com/orders", json=order, timeout=5)  # expect: JC201
    requests.get("https://partner.example.com/ack", timeout=5)


@retry(stop_max_attempt_number=3, wait_fixed=2000)
def notify_partner_once(order):
    requests.post("https://partner.example.com/orders", json=order, headers={"Idempotency-Key": order["id"]}, timeout=5)
    requests.get("https://partner.example.com/ack", timeout=5)
