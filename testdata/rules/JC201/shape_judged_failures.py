# jobcheck-test: select=JC201
# A retry loop whose handler asks the application about the failure (`if self._clock_skew(e):
# resync else: raise`, `action = classify(e)`) goes round only on the failures the application
# picks; which ones is its knowledge (a rejected timestamp, a rate limit), so a retry is not
# reported there. A handler that goes round whatever the check says is reported, and so is one
# whose check takes timeouts for retryable: a timeout can come after the far end acted.
import requests
from celery import shared_task


class Exchange:
    def _clock_skew(self, error):
        return "timestamp" in str(error)

    def _classify(self, error):
        return "retry" if "429" in str(error) else "fail"

    def place_order(self, order):
        for _ in range(2):
            try:
                return requests.post("https://exchange.example/orders", json=order).json()
            except IOError as request_exception:
                if self._clock_skew(request_exception=request_exception):
                    self.resync()
                else:
                    raise

    def transfer(self, order_id):
        for _ in range(3):
            try:
                return requests.post("https://exchange.example/transfers", json={"order": order_id}).json()
            except IOError as e:
                action = self._classify(e)
                if action == "fail":
                    raise
                elif action == "retry":
                    continue

    def _retryable(self, error):
        return isinstance(error, (requests.Timeout, requests.ConnectionError))

    def deposit(self, amount):
        for _ in range(3):
            try:
                return requests.post("https://exchange.example/deposits", json={"amount": amount}).json()  # expect: JC201
            except IOError as e:
                if not self._retryable(e):
                    raise

    def refund(self, amount):
        for _ in range(3):
            try:
                return requests.post("https://exchange.example/refunds", json={"amount": amount}).json()  # expect: JC201
            except IOError as e:
                if isinstance(e, requests.HTTPError):
                    raise

    def withdraw(self, amount):
        for _ in range(3):
            try:
                return requests.post("https://exchange.example/withdrawals", json={"amount": amount}).json()  # expect: JC201
            except IOError as e:
                if self._clock_skew(e):
                    self.resync()

    def resync(self):
        pass


@shared_task
def trade(order):
    exchange = Exchange()
    exchange.place_order(order)
    exchange.transfer(order["id"])
    exchange.withdraw(order["amount"])
    exchange.deposit(order["amount"])
    exchange.refund(order["amount"])
