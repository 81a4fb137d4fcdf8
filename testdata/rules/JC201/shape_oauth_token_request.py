# jobcheck-test: select=JC201
# A retried task that fetches an OAuth 2.0 token before its work: the token request is a POST
# that only obtains a credential (its form says `grant_type`), so repeating it changes nothing.
# The POST that follows it, with no key, is what a retry repeats.
import requests
from celery import shared_task


def access_token():
    form = {
        "grant_type": "client_credentials",
        "client_id": "worker",
        "client_secret": "secret",
    }
    response = requests.post("https://auth.example/oauth2/access_token/", data=form, timeout=10)
    response.raise_for_status()
    return response.json()["access_token"]


@shared_task(bind=True, max_retries=5)
def fulfil(self, order_number):
    headers = {"Authorization": f"JWT {access_token()}"}
    try:
        requests.put(f"https://shop.example/orders/{order_number}/fulfil/", headers=headers, timeout=10)
    except requests.Timeout as exc:
        raise self.retry(exc=exc, countdown=2 ** self.request.retries)


@shared_task(bind=True, max_retries=5)
def refresh_and_report(self, order_number):
    token = requests.post("https://auth.example/token", json={"grant_type": "refresh_token", "refresh_token": "r"}).json()
    try:
        requests.post("https://shop.example/reports", json={"order": order_number},  # expect: JC201
                      headers={"Authorization": f"Bearer {token['access_token']}"})
    except requests.Timeout as exc:
        raise self.retry(exc=exc, countdown=2 ** self.request.retries)


@shared_task(bind=True, max_retries=5)
def create_without_key(self, order_number):
    form = {"order": order_number, "grant": "full"}
    try:
        requests.post("https://shop.example/grants", data=form)  # expect: JC201
    except requests.Timeout as exc:
        raise self.retry(exc=exc, countdown=2 ** self.request.retries)


class LedgerApi:
    """A client retrying its own requests by recursion: the token request's form is built with
    `dict(grant_type=...)`, and the operations are fetched with a POST of a method named for
    fetching after a word naming the API (`_api_fetch_operations`): both ask, neither changes."""

    def __init__(self):
        self.attempt = 1
        self.token = None

    def _api_authorize(self):
        try:
            response = requests.post("https://auth.example/token",
                                     data=dict(grant_type="client_credentials", client_id="caerp"))
            self.token = response.json()["access_token"]
        except Exception:
            self.attempt += 1
            if self.attempt > 15:
                raise
            return self._api_authorize()

    def _api_fetch_operations(self, page=1):
        try:
            return requests.post(f"https://ledger.example/operations?page={page}",
                                 headers={"Authorization": f"Bearer {self.token}"}).json()
        except Exception:
            self.attempt += 1
            if self.attempt > 15:
                raise
            return self._api_fetch_operations(page=page)

    def _api_post_operations(self, rows):
        try:
            return requests.post("https://ledger.example/operations", json=rows)  # expect: JC201
        except Exception:
            self.attempt += 1
            if self.attempt > 15:
                raise
            return self._api_post_operations(rows)
