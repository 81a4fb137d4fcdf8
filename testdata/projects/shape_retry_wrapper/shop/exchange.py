# jobcheck-test: select=JC201,JC202,JC203,JC501
"""Methods under the application's own recursive retry decorators."""
import requests

from .recursion import TemporaryError, forever, patient, retrier, tolerant


class Exchange:
    @retrier
    def cancel_order(self, order_id):
        response = requests.post("https://exchange.example/cancel", json={"id": order_id})  # expect: JC201
        if response.status_code == 429:
            raise TemporaryError("rate limited")

    @retrier(retries=2)
    def fetch_order(self, order_id):
        return requests.get("https://exchange.example/orders", params={"id": order_id}).json()

    @forever
    def place(self, order):
        requests.post("https://exchange.example/orders", json=order)


@tolerant
def export_node(node):
    requests.post("https://export.example/nodes", json={"id": node.pk})


@patient
def refresh_prices(symbol):
    return requests.get("https://exchange.example/prices", params={"symbol": symbol}).json()
