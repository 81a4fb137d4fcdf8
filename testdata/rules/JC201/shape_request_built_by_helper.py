"""A request an application helper builds and returns, sent with `Session().send(...)`: its method
is what the helper's builder says (a literal, or what the caller passes for the helper's parameter)."""

import requests
from celery import shared_task
from requests import Request, Session
from urllib.request import Request as UrlRequest, urlopen


def prepare_delivery(url, payload):
    request = Request(method="POST", url=url, headers={"Content-Type": "application/json"}, data=payload)
    return request.prepare()


def prepare_call(method, url):
    return requests.Request(method, url).prepare()


def status_request(url):
    return Request("GET", url).prepare()


def url_request(url, body):
    return UrlRequest(url, data=body)


@shared_task(bind=True, max_retries=5)
def fire_webhook(self, url, payload):
    req = prepare_delivery(url, payload)
    try:
        Session().send(req).raise_for_status()  # expect: JC201
    except requests.RequestException as exc:
        raise self.retry(exc=exc)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def post_through_method_helper(url):
    Session().send(prepare_call("POST", url))  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def post_urllib_body(url):
    urlopen(url_request(url, b"id=1"))  # expect: JC201


# Clean: the helper builds a read, or the caller asks it for one.
@shared_task(autoretry_for=(Exception,), max_retries=3)
def poll_status(url):
    return Session().send(status_request(url)).json()


@shared_task(autoretry_for=(Exception,), max_retries=3)
def get_through_method_helper(url):
    return Session().send(prepare_call("GET", url)).json()


@shared_task(autoretry_for=(Exception,), max_retries=3)
def urllib_without_body(url):
    return urlopen(url_request(url, None)).read()


def prepare_from_params(params):
    return Request(method=params.method, url=params.url, data=params.body).prepare()


@shared_task(autoretry_for=(Exception,), max_retries=3)
def send_configured_request(params):
    # The method is data (a connector's configuration): not followed, as a request from elsewhere.
    return Session().send(prepare_from_params(params))
