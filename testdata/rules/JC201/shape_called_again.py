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


@shared_task
def report(url, message):
    try:
        event = {"ok": True, "message": message}
        requests.post(url, json=event, timeout=10)
    except requests.ConnectionError:
        event = {"ok": False, "message": message}
        requests.post(url, json=event, timeout=10)  # the same text on other data: a report of the failure


@shared_task
def ask(url, payload):
    try:
        requests.post(url, json=payload, timeout=10)
    except requests.HTTPError:
        payload.pop("response_format", None)
        requests.post(url, json=payload, timeout=10)  # a fallback with the argument changed


class NotAuthorized(Exception):
    pass


def call_api(url, body):
    try:
        response = requests.post(url, json=body, timeout=10)
        response.raise_for_status()
        return response
    except requests.HTTPError as err:
        if "403" == str(err.response.status_code):
            raise NotAuthorized() from err  # refused: the request did nothing
        raise


@shared_task
def call_with_login(url, body):
    try:
        return call_api(url, body)
    except NotAuthorized:
        return call_api(url, body)


@shared_task
def notify(url, body):
    try:
        response = requests.post(url, data=body, timeout=10)
        response.raise_for_status()
    except requests.HTTPError as error:
        if error.response.status_code != 429 or error.response.headers.get("X-RateLimit-Remaining") != "0":
            raise
        time.sleep(int(error.response.headers.get("X-RateLimit-Reset-After", "1")) + 1)
        response = requests.post(url, data=body, timeout=10)  # sent again only after a 429: nothing landed
        response.raise_for_status()


def find_queue(url, name):
    return requests.post(f"{url}/queues.get_all", json={"name": name}, timeout=10).json()["id"]


@shared_task
def resolve_queue(url, name):
    try:
        return find_queue(url, name)
    except KeyError:
        requests.post(f"{url}/queues.create", json={"name": name}, timeout=10)
        return find_queue(url, name)  # looked up again after the create: no second attempt


def detach(url):
    requests.post(f"{url}/detach", timeout=10).raise_for_status()


@shared_task
def import_channel(url, channel):
    try:
        requests.get(f"{url}/channels/{channel}", timeout=10).raise_for_status()
        detach(url)
    except requests.HTTPError:
        detach(url)  # the clean-up both paths end with: nothing tried again
        raise
