# jobcheck-test: select=JC201
# A POST that asks rather than writes: a search endpoint takes its query in the body when it is
# too large for a URL, and repeating it changes nothing. Also through a retried helper that
# every caller gives a search path, with its URL built by `str.format`. The writes beside them
# are still reported.
import requests
from celery import shared_task
from tenacity import retry, stop_after_attempt


class Pulp:
    def __init__(self, server):
        self.root = "{0}/pulp/api/v2/".format(server.rstrip("/"))

    @retry(stop=stop_after_attempt(5))
    def _rest_post(self, endpoint, data):
        return requests.post("{0}{1}".format(self.root, endpoint.lstrip("/")), json=data).json()

    def repositories(self, names):
        return self._rest_post("repositories/search/", {"criteria": {"filters": {"id": {"$in": names}}}})

    def units(self, repo):
        return self._rest_post("/content/units/rpm/search/", {"criteria": {"repo": repo}})


class Ledger:
    @retry(stop=stop_after_attempt(5))
    def _rest_post(self, endpoint, data):
        return requests.post("https://ledger.example/api/{0}".format(endpoint), json=data).json()  # expect: JC201

    def find(self, account):
        return self._rest_post("entries/search", {"account": account})

    def book(self, account, amount):
        return self._rest_post("entries/", {"account": account, "amount": amount})


@shared_task(autoretry_for=(Exception,), max_retries=3)
def index_orders(order_ids):
    requests.post("https://search.example/orders/_search", json={"query": {"ids": order_ids}})
    requests.post("https://search.example/orders/_doc", json={"ids": order_ids})  # expect: JC201


def odd_field(base, path):
    return requests.get("{0}/{²}".format(base, path))  # a field Python would not read: no crash


class Subtitles:
    """A URL held in a name that says only that it searches (`search_url`) takes a query; one
    named for something else (`upload_url`) is a write."""

    search_url = "https://subs.example/soap"
    upload_url = "https://subs.example/upload"

    @retry(stop=stop_after_attempt(3))
    def _api_request(self, envelope):
        return requests.post(self.search_url, data=envelope)

    @retry(stop=stop_after_attempt(3))
    def upload(self, envelope):
        return requests.post(self.upload_url, data=envelope)  # expect: JC201


@shared_task
def find_subtitles(envelope):
    Subtitles()._api_request(envelope)
    Subtitles().upload(envelope)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def screen_comment(text):
    # An evaluation of what it is sent (a guard, a classifier, a moderation API) changes nothing.
    requests.post("https://guard.example/v1/guard/analyze", json={"text": text})
    requests.post("https://models.example/v1/moderations", json={"input": text})
    requests.post("https://comments.example/v1/comments", json={"text": text})  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def wait_for_approval(device_code):
    # A poll for news (OAuth's device flow) asks; submitting the code for approval writes.
    requests.post("https://auth.example/v1/device-code/poll", json={"device_code": device_code})
    requests.post("https://auth.example/v1/device-code/submit-email", json={"code": device_code})  # expect: JC201


def _request_with_retries(url, method="GET", payload=None, retries=3):
    """A retry loop shared by the functions of a client: what each call does is what the
    function making it is named for. Every caller here asks (`get_token`, `_fetch_all`)."""
    for attempt in range(retries):
        try:
            if method == "POST":
                return requests.post(url, data=payload)
            return requests.get(url)
        except requests.RequestException:
            if attempt == retries - 1:
                raise


def _send_with_retries(url, method="GET", payload=None, retries=3):
    """The same loop, one of whose callers creates something (`create_group`)."""
    for attempt in range(retries):
        try:
            if method == "POST":
                return requests.post(url, data=payload)  # expect: JC201
            return requests.get(url)
        except requests.RequestException:
            if attempt == retries - 1:
                raise


class Directory:
    def get_token(self, base):
        token_url = f"{base}/realms/main/api-access/token"
        return _request_with_retries(url=token_url, method="POST", payload={"audience": "directory"})

    def _fetch_all(self, url):
        return _request_with_retries(url=f"{url}&limit=100", method="GET")

    def get_groups_token(self, base):
        return _send_with_retries(url=f"{base}/token", method="POST", payload={"audience": "groups"})

    def create_group(self, base, name):
        return _send_with_retries(url=f"{base}/groups", method="POST", payload={"name": name})


@shared_task
def sync_directory(base):
    directory = Directory()
    directory.get_token(base)
    directory._fetch_all(base)
    directory.get_groups_token(base)
    directory.create_group(base, "staff")


class Node:
    """An RPC-style API whose reads are POSTs to a getter path (`/wallet/gettransactionbyid`,
    `/eth/getBlockByNumber`): the path's last segment says it asks; one that says it creates,
    or a broadcast, changes something."""

    def _post(self, path, payload):
        return requests.post(f"https://node.example{path}", json=payload, timeout=10)

    def confirmed(self, txid):
        return self._post("/walletsolidity/gettransactionbyid", {"value": txid})

    def block(self, number):
        return self._post("/eth/getBlockByNumber", {"number": number})

    def broadcast(self, signed):
        return self._post("/wallet/broadcasttransaction", signed)


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5)
def confirm_transfers(txid, number):
    node = Node()
    node.confirmed(txid)
    node.block(number)


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5)
def broadcast_transfer(signed):
    Node().broadcast(signed)  # expect: JC201
