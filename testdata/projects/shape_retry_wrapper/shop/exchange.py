# jobcheck-test: select=JC201,JC202,JC203,JC501
"""Methods under the application's own recursive retry decorators."""
import requests

from .recursion import TemporaryError, forever, patient, retrier, throttled, tolerant


class Exchange:
    @retrier  # expect: JC203
    def cancel_order(self, order_id):
        response = requests.post("https://exchange.example/cancel", json={"id": order_id})  # expect: JC201
        if response.status_code == 429:
            raise TemporaryError("rate limited")

    @retrier(retries=2)  # expect: JC203
    def fetch_order(self, order_id):
        return requests.get("https://exchange.example/orders", params={"id": order_id}).json()

    @retrier(retries=0)
    def create_stoploss(self, order):
        """Given no retries: run once."""
        response = requests.post("https://exchange.example/stoploss", json=order)
        if response.status_code == 429:
            raise TemporaryError("rate limited")

    @retrier(retries=1)
    def cancel_stoploss(self, order_id):
        """One retry is no storm (JC203 quiet); the POST is retried once all the same."""
        response = requests.post("https://exchange.example/stoploss/cancel", json={"id": order_id})  # expect: JC201
        if response.status_code == 429:
            raise TemporaryError("rate limited")

    @forever  # expect: JC202
    def place(self, order):
        requests.post("https://exchange.example/orders", json=order)


@tolerant
def export_node(node):
    requests.post("https://export.example/nodes", json={"id": node.pk})


@patient  # expect: JC203
def refresh_prices(symbol):
    return requests.get("https://exchange.example/prices", params={"symbol": symbol}).json()


@throttled
def refresh_rates(symbol):
    return requests.get("https://exchange.example/rates", params={"symbol": symbol}).json()
