# jobcheck-test: select=JC201
# tornado's HTTP clients send what the request says: `fetch(url, method="POST", body=...)`, or a
# `HTTPRequest(url, "POST", ...)` it is handed, writes; a plain `fetch(url)` and a request that says
# GET read, also through a helper whose method the caller gives.
from celery import shared_task
from tornado.httpclient import HTTPClient, HTTPRequest

RETRIED = dict(autoretry_for=(OSError,), max_retries=3)


def request(hub, path, method):
    return HTTPClient().fetch(f"{hub}/{path}", method=method, body=None if method == "GET" else "{}")


@shared_task(**RETRIED)
def create_user(hub, name):
    HTTPClient().fetch(f"{hub}/users/{name}", method="POST", body="{}")  # expect: JC201


@shared_task(**RETRIED)
def start_server(hub, name):
    HTTPClient().fetch(HTTPRequest(f"{hub}/users/{name}/server", "POST", body="{}"))  # expect: JC201


@shared_task(**RETRIED)
def read_user(hub, name):
    HTTPClient().fetch(f"{hub}/users/{name}")


@shared_task(**RETRIED)
def read_health(hub):
    HTTPClient().fetch(HTTPRequest(f"{hub}/health", method="GET"))


@shared_task(**RETRIED)
def read_through_helper(hub, name):
    request(hub, f"users/{name}", "GET")


@shared_task(**RETRIED)
def post_through_helper(hub, name):
    request(hub, f"users/{name}/tokens", "POST")  # expect: JC201
