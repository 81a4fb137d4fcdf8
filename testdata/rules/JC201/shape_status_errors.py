# jobcheck-test: select=JC201
# A retry on an error status (`requests.HTTPError`, `httpx.HTTPStatusError`) fires only where
# `raise_for_status()` runs inside what is retried, on the call's result or in a helper of the
# application's (which may raise it itself): a POST whose status is checked by the caller, after
# the retry has returned, is not repeated by it.
import backoff
import httpx
import requests
import tenacity
from celery import shared_task


def retry_on(exceptions, tries=3):
    def decorator(function_to_retry):
        def wrapper(*args, **kwargs):
            for attempt in range(tries):
                try:
                    return function_to_retry(*args, **kwargs)
                except exceptions:
                    if attempt == tries - 1:
                        raise
        return wrapper
    return decorator


class GatewayClient:
    def __init__(self, host):
        self.host = host
        self.session = requests.Session()

    @retry_on(requests.exceptions.HTTPError)
    def post(self, uri, data):
        return self.session.post(f"{self.host}/{uri}", json=data)

    @retry_on(requests.exceptions.HTTPError)
    def post_checked(self, uri, data):
        response = self.session.post(f"{self.host}/{uri}", json=data)  # expect: JC201
        response.raise_for_status()
        return response

    @retry_on(requests.exceptions.HTTPError)
    def post_through_helper(self, uri, data):
        return self._send(uri, data)  # expect: JC201

    def _send(self, uri, data):
        response = self.session.post(f"{self.host}/{uri}", json=data)
        response.raise_for_status()
        return response


def _check(response):
    if response.status_code >= 500:
        raise requests.HTTPError(response=response)
    return response


def get_json(url):
    response = requests.get(url)
    response.raise_for_status()
    return response.json()


@backoff.on_exception(backoff.expo, requests.HTTPError, max_tries=4)
def post_then_read(url, event):
    requests.post(url, json=event)  # expect: JC201
    return get_json(url + "/status")


@backoff.on_exception(backoff.expo, requests.HTTPError, max_tries=4)
def send_invoice(url, invoice):
    _check(requests.post(url, json=invoice))  # expect: JC201


@tenacity.retry(retry=tenacity.retry_if_exception_type(httpx.HTTPStatusError), stop=tenacity.stop_after_attempt(3))
def notify(url, event):
    return httpx.post(url, json=event)


@backoff.on_exception(backoff.expo, requests.HTTPError, max_tries=4)
def announce(url, event):
    requests.post(url, json=event).raise_for_status()  # expect: JC201


@shared_task
def sync(host, devices):
    client = GatewayClient(host)
    for device in devices:
        client.post("devices", device).raise_for_status()
        client.post_checked("inventory", device)
        client.post_through_helper("audit", device)
    notify(f"{host}/hooks", {"synced": len(devices)})
    announce(f"{host}/announce", {"synced": len(devices)})
    send_invoice(f"{host}/invoices", {"devices": len(devices)})
    post_then_read(f"{host}/events", {"devices": len(devices)})
