# jobcheck-test: select=JC201
# The application's own retry helper, called with what to retry: a function whose retry loop calls
# the callable it is given retries whatever each caller hands it (a closure, a function, a lambda
# calling a library: only the lambda's call runs again, not the rest of the caller). A helper that
# calls it once, and a retried read, repeat no effect.
import time

import requests
from celery import shared_task


def with_retries(fn, attempts=5, delay=2.0):
    for attempt in range(attempts):
        try:
            return fn()
        except requests.RequestException:
            time.sleep(delay * 2 ** attempt)
    raise RuntimeError("gave up")


def timed(fn):
    started = time.monotonic()
    try:
        return fn()
    finally:
        print(time.monotonic() - started)


def notify_partner(order):
    requests.post("https://partner.example/orders", json=order)  # expect: JC201


def read_status(order):
    return requests.get(f"https://partner.example/orders/{order['id']}")


@shared_task
def push(order):
    def send():
        requests.post("https://partner.example/audit", json=order)  # expect: JC201

    with_retries(send)
    with_retries(notify_partner)
    with_retries(lambda: read_status(order))
    timed(lambda: requests.post("https://partner.example/timed", json=order))


def post_receipt(order):
    requests.post("https://carrier.example/receipts", json=order)


@shared_task
def ship(order):
    with_retries(lambda: requests.post("https://carrier.example/labels", json=order))  # expect: JC201
    with_retries(lambda: post_receipt(order))  # expect: JC201
    with_retries(lambda: requests.get(f"https://carrier.example/labels/{order['id']}"))
    requests.post("https://partner.example/shipped", json=order)


def wait_for_redis(log, url):
    # A loop retrying its connection, given a logger: the logger is no callable it retries.
    ready = False
    while not ready:
        try:
            requests.get(url + "/ping")
            log("connected")
            ready = True
        except requests.RequestException:
            time.sleep(2)


def report(message):
    requests.post("https://chat.example/messages", json={"text": message})


@shared_task
def deploy(url):
    wait_for_redis(report, url)


@shared_task
def receipt_again(order):
    post_receipt(order)  # retried where a lambda hands it to the helper, not here
