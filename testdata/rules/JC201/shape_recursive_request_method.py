# jobcheck-test: select=JC201
# An API client's request helper that retries by calling itself (`return self._make_request(method,
# url, retry + 1)` in its handler) hands its own `method` on: what it sends is what its other
# callers pass. Only GETs: a retry asks again. A caller passing POST makes the retry repeat a write.
import time

import requests


class FeesClient:
    def __init__(self):
        self.session = requests.Session()

    def _make_request(self, method, url, retry=0):
        try:
            response = self.session.request(method, url, timeout=30)
            response.raise_for_status()
            return response.json()
        except requests.exceptions.HTTPError:
            if retry < 3:
                time.sleep(2**retry)
                return self._make_request(method, url, retry + 1)
            return None

    def payment(self, payment_id):
        return self._make_request("GET", f"https://psp.example/payments/{payment_id}")

    def settlement(self, settlement_id):
        return self._make_request("GET", f"https://psp.example/settlements/{settlement_id}")


class OrdersClient:
    def __init__(self):
        self.session = requests.Session()

    def _make_request(self, method, url, retry=0):
        try:
            response = self.session.request(method, url, timeout=30)  # expect: JC201
            response.raise_for_status()
            return response.json()
        except requests.exceptions.HTTPError:
            if retry < 3:
                time.sleep(2**retry)
                return self._make_request(method, url, retry + 1)
            return None

    def order(self, order_id):
        return self._make_request("GET", f"https://shop.example/orders/{order_id}")

    def refund(self, order_id):
        return self._make_request("POST", f"https://shop.example/orders/{order_id}/refunds")
