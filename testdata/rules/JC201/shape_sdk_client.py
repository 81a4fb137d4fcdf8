# jobcheck-test: select=JC201
# An API client of the application's own, built like an SDK: a resource that keeps the client it
# is made with (`Charges(self)`), and a service reaching it through a property that makes it
# lazily (with a setter beside it, which does not replace it). A retried task charging through it
# repeats the POST; one reading through it asks again, and so does one calling the client's
# `request` by name with GET, which is not the only call of it.
import requests
from celery import shared_task


class Client:
    def __init__(self):
        self.session = requests.Session()
        self.charges = Charges(self)

    def request(self, method, path, json=None):
        return self.session.request(method, f"https://api.example{path}", json=json, timeout=10)


class Charges:
    def __init__(self, client):
        self.client = client

    def _get(self, path):
        return self.client.request("GET", path)

    def _post(self, path, payload):
        return self.client.request("POST", path, json=payload)

    def create(self, amount):
        return self._post("/charges", {"amount": amount})

    def fetch(self, charge_id):
        return self._get(f"/charges/{charge_id}")


class Service:
    def __init__(self, client=None):
        self._client = client

    @property
    def client(self):
        if self._client is None:
            self._client = Client()
        return self._client

    @client.setter
    def client(self, value):
        self._client = value

    def charge(self, amount):
        return self.client.charges.create(amount)

    def status(self, charge_id):
        return self.client.charges.fetch(charge_id)


@shared_task(autoretry_for=(requests.ConnectionError,), max_retries=3)
def charge_card(amount):
    Service().charge(amount)  # expect: JC201


@shared_task(autoretry_for=(requests.ConnectionError,), max_retries=3)
def check_charge(charge_id):
    Service().status(charge_id)


@shared_task(autoretry_for=(requests.ConnectionError,), max_retries=3)
def ping_api():
    """Calls the client's `request` by its name, with GET: not the only call of it, so the POST
    through the resources still writes."""
    Client().request("GET", "/ping")
