# jobcheck-test: select=JC201
# HTTP writes made through the lower-level and held-client APIs, in Celery tasks retried by
# autoretry_for. Each is a POST (or an unknown, computed method) that a retry repeats. The
# clean look-alikes at the end only read.
import http.client
import urllib.request
from urllib.request import Request, urlopen

import aiohttp
import httpx
import requests
from celery import shared_task


@shared_task(autoretry_for=(Exception,), max_retries=3)
def sync_with_method(order_id, method="POST"):
    session = requests.Session()
    session.request(method, "https://erp.example/orders", json={"id": order_id})  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def sync_with_upper_method(order_id, verb):
    requests.Session().request(verb.upper(), "https://erp.example/orders", json={"id": order_id})  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def send_prepared(order_id):
    session = requests.Session()
    prepared = requests.Request("POST", "https://erp.example/orders", json={"id": order_id}).prepare()
    session.send(prepared)  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def urlopen_with_data(order_id):
    req = Request("https://erp.example/orders", data=b'{"id": 1}', method="POST")
    urlopen(req)  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def urlopen_data_argument(order_id):
    urllib.request.urlopen("https://erp.example/orders", data=b"id=1")  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def http_client_post(order_id):
    conn = http.client.HTTPSConnection("erp.example")
    conn.request("POST", "/orders", body=b'{"id": 1}', headers={"Content-Type": "application/json"})  # expect: JC201
    return conn.getresponse().status


class Partner:
    def __init__(self):
        self.client = httpx.Client(base_url="https://partner.example")

    def push(self, order_id):
        self.client.post("/orders", json={"id": order_id})


@shared_task(autoretry_for=(Exception,), max_retries=3)
def push_through_held_client(order_id):
    Partner().push(order_id)  # expect: JC201


class AsyncPartner:
    def __init__(self):
        self.session = aiohttp.ClientSession()

    async def push(self, order_id):
        async with self.session.post("https://partner.example/orders", json={"id": order_id}) as resp:
            return resp.status


@shared_task(autoretry_for=(Exception,), max_retries=3)
async def push_through_held_session(order_id):
    await AsyncPartner().push(order_id)  # expect: JC201


# Clean: reads only, through the same wrappers.
@shared_task(autoretry_for=(Exception,), max_retries=3)
def read_with_method(order_id):
    requests.Session().request("GET", f"https://erp.example/orders/{order_id}")


@shared_task(autoretry_for=(Exception,), max_retries=3)
def read_prepared(order_id):
    session = requests.Session()
    session.send(requests.Request("GET", f"https://erp.example/orders/{order_id}").prepare())


@shared_task(autoretry_for=(Exception,), max_retries=3)
def read_urlopen(order_id):
    with urlopen(f"https://erp.example/orders/{order_id}") as resp:
        return resp.read()


@shared_task(autoretry_for=(Exception,), max_retries=3)
def read_http_client(order_id):
    conn = http.client.HTTPSConnection("erp.example")
    conn.request("GET", f"/orders/{order_id}")
    return conn.getresponse().read()


class PartnerReader:
    def __init__(self):
        self.client = httpx.Client(base_url="https://partner.example")

    def fetch(self, order_id):
        return self.client.get(f"/orders/{order_id}").json()


@shared_task(autoretry_for=(Exception,), max_retries=3)
def read_through_held_client(order_id):
    return PartnerReader().fetch(order_id)


# An API client whose helper takes the method as a parameter with a default: each call site's
# literal (or the default it leaves) decides, through one helper or two.
class Gateway:
    def __init__(self):
        self.session = requests.Session()

    def call(self, path, method="GET", **kwargs):
        return self.session.request(method, f"https://gw.example{path}", timeout=10, **kwargs)

    def forward(self, method, path):
        return self.call(path, method)

    def status(self, order_id):
        return self.call(f"/orders/{order_id}")

    def submit(self, order_id):
        return self.call("/orders", "POST", json={"id": order_id})


@shared_task(autoretry_for=(Exception,), max_retries=3)
def submit_through_gateway(order_id):
    Gateway().submit(order_id)  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def patch_through_two_helpers(order_id):
    Gateway().forward("PATCH", f"/orders/{order_id}")  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def status_through_gateway(order_id):
    return Gateway().status(order_id)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def read_through_two_helpers(order_id):
    return Gateway().forward("GET", f"/orders/{order_id}")


def open_request(req):
    with urlopen(req, timeout=10) as resp:
        return resp.read()


@shared_task(autoretry_for=(Exception,), max_retries=3)
def post_through_opener_helper(order_id):
    # A request built here and sent by a helper: the helper's urlopen is not followed back to it.
    open_request(Request("https://erp.example/orders", data=b"{}", method="POST"))  # todo-expect: JC201
