# jobcheck-test: select=JC201
# An HTTP method a local holds, set in `if` arms or by a conditional expression: the request writes
# when either method may write. HEAD or GET reads; POST on one arm writes.
import requests
from celery import shared_task

RETRIED = dict(autoretry_for=(OSError,), max_retries=3)


@shared_task(**RETRIED)
def probe(url, exists):
    if exists:
        method = "HEAD"
    else:
        method = "GET"
    return requests.request(method, url, timeout=10)


@shared_task(**RETRIED)
def probe_inline(url, exists):
    method = "HEAD" if exists else "GET"
    return requests.request(method, url, timeout=10)


@shared_task(**RETRIED)
def create_or_read(url, new):
    if new:
        method = "POST"
    else:
        method = "GET"
    return requests.request(method, url, timeout=10)  # expect: JC201


@shared_task(**RETRIED)
def create_unless_known(url, known):
    method = "POST"
    if known:
        method = "GET"
    return requests.request(method, url, timeout=10)  # expect: JC201


@shared_task(**RETRIED)
def create_inline(url, new):
    return requests.request("POST" if new else "GET", url, timeout=10)  # expect: JC201


@shared_task(**RETRIED)
def read_after_all(url):
    method = "POST"
    method = "GET"
    return requests.request(method, url, timeout=10)


def send(url, method):
    return requests.request(method, url, timeout=10)


@shared_task(**RETRIED)
def probe_through_helper(url, exists):
    method = "HEAD" if exists else "GET"
    return send(url, method)


@shared_task(**RETRIED)
def create_through_helper(url, new):
    method = "POST" if new else "GET"
    return send(url, method)  # expect: JC201
