# jobcheck-test: select=JC201
# A request helper whose retry loop goes round only for a request that reads (`attempts = 1 +
# (retries if method == "GET" else 0)`, urllib3's `allowed_methods` by hand): a POST through it is
# tried once, so the loop repeats no write. One that retries every method repeats the POST.
import time

import requests
from celery import shared_task


def request(method, url, payload=None, retries=3):
    attempts = 1 + (retries if method == "GET" else 0)
    for attempt in range(1, attempts + 1):
        try:
            return requests.request(method, url, json=payload, timeout=10)
        except requests.ConnectionError:
            if attempt == attempts:
                raise
            time.sleep(2 ** attempt)


def request_any(method, url, payload=None, retries=3):
    for attempt in range(1, retries + 2):
        try:
            return requests.request(method, url, json=payload, timeout=10)  # expect: JC201
        except requests.ConnectionError:
            if attempt == retries + 1:
                raise
            time.sleep(2 ** attempt)


@shared_task
def create_order(order):
    request("POST", "https://shop.example/orders", order)
    request_any("POST", "https://shop.example/orders", order)
