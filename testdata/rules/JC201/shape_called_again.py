# jobcheck-test: select=JC201
# A call written again in the `except` of the `try` that made it, callee and arguments the same,
# is retried once: a POST there is sent twice when the first one's reply was lost. A function of
# the application called again runs again as a whole. A fallback to other arguments (another
# host), or a read, repeats no change.
import time

import requests
from celery import shared_task


def create_order(url, order):
    return requests.post(f"{url}/orders", json=order, timeout=10)  # expect: JC201


@shared_task
def submit(url, order):
    try:
        response = requests.post(url, json=order, timeout=10)  # expect: JC201
    except requests.Timeout:
        time.sleep(2)
        response = requests.post(url, json=order, timeout=10)
    return response.status_code


@shared_task
def place(url, order):
    try:
        create_order(url, order)
    except requests.ConnectionError:
        time.sleep(5)
        create_order(url, order)


@shared_task
def announce(primary, backup, message):
    try:
        requests.post(primary, json=message, timeout=10)
    except requests.ConnectionError:
        requests.post(backup, json=message, timeout=10)


@shared_task
def fetch(url):
    try:
        return requests.get(url, timeout=10).json()
    except requests.Timeout:
        return requests.get(url, timeout=10).json()
