"""The application's API client and its errors (see tasks.py)."""
import requests


class ApiError(Exception):
    pass


class ServerError(ApiError):
    pass


class RateLimited(ServerError):
    pass


class InvalidPayload(ApiError):
    pass


class CertificatesClient:
    def __init__(self, url):
        self.url = url
        self.session = requests.Session()

    def _request(self, method, **kwargs):
        try:
            response = self.session.request(method, self.url, timeout=10, **kwargs)
        except requests.RequestException as exc:
            raise ApiError(f"could not reach {self.url}") from exc
        if response.status_code >= 500:
            raise ServerError(response.text)
        return response.json()

    def issue(self, email):
        return self._request("POST", json={"email": email})

    def revoke(self, uid):
        response = requests.delete(f"{self.url}/{uid}", timeout=10)
        if response.status_code == 429:
            raise RateLimited(uid)
        return response

    def register(self, payload):
        if "email" not in payload:
            raise ServerError("the payload has no email")
        return requests.post(self.url, json=payload, timeout=10)


class LockTimeout(Exception):
    pass


def take_lock(name):
    if name.startswith("busy"):
        raise LockTimeout(name)


def write_receipt(order_id):
    with open(f"receipts/{order_id}.txt", "w") as fh:
        fh.write("paid")


def place(order_id):
    """Takes the order's lock, then charges: a lock timeout comes before the charge."""
    take_lock(f"order-{order_id}")
    requests.post("https://payments.example/charges", json={"order": order_id}, timeout=10)
    write_receipt(order_id)


def place_then_confirm(order_id):
    """Charges, then takes the lock to confirm: a lock timeout comes after the charge."""
    requests.post("https://payments.example/charges", json={"order": order_id}, timeout=10)
    take_lock(f"order-{order_id}")
