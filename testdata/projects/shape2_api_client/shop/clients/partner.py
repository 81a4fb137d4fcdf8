# The application's own API client: every call goes through `_request`, which hands the method
# on to `requests.Session.request`. POST through it is a write; GET is a read.
import requests


class PartnerClient:
    def __init__(self, base_url="https://partner.example", token="x"):
        self.base_url = base_url
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"

    def _request(self, method, path, **kwargs):
        response = self.session.request(method, f"{self.base_url}{path}", timeout=10, **kwargs)
        response.raise_for_status()
        return response.json()

    def create_order(self, order):
        return self._request("POST", "/orders", json=order)

    def get_order(self, order_id):
        return self._request("GET", f"/orders/{order_id}")
