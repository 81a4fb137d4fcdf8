# jobcheck-test: select=JC201
# A hand-written retry loop whose handler tests what it caught and raises the rest goes round only
# for the failures it picked (a clock-skew rejection, a rate limit): the code decided those leave
# the request unapplied. A loop that retries every failure, raising only when out of tries, does not.
import time

import requests
from celery import shared_task

API = "https://exchange.example/api"


def is_clock_skew(error):
    return "timestamp" in str(error)


class ExchangeClient:
    def place_order(self, order):
        for _ in range(2):
            try:
                return requests.post(f"{API}/orders", json=order, timeout=10).json()
            except IOError as error:
                if is_clock_skew(error):
                    self.resync_clock()
                else:
                    raise

    def cancel_order(self, order_id):
        for attempt in range(3):
            try:
                return requests.post(f"{API}/cancel", json={"id": order_id}, timeout=10).json()
            except requests.RequestException as error:
                kind = classify(error)
                if kind != "rate-limited":
                    raise
                time.sleep(2 ** attempt)

    def create_listen_key(self):
        tries = 0
        while True:
            try:
                return requests.post(f"{API}/listenKey", timeout=5).json()["key"]  # expect: JC201
            except requests.RequestException:
                tries += 1
                if tries > 3:
                    raise
                time.sleep(tries)

    def resync_clock(self):
        requests.get(f"{API}/time", timeout=5)


def classify(error):
    return "rate-limited" if getattr(error.response, "status_code", None) == 429 else "other"


@shared_task
def trade(order):
    client = ExchangeClient()
    client.create_listen_key()
    client.place_order(order)
    client.cancel_order(order["id"])
