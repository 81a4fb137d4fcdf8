import requests


class WebhookDestination:
    """Implements `Destination` by structure (no base class): the worker's `deliver` runs this."""

    def __init__(self, url):
        self.url = url

    def deliver(self, envelope):
        requests.post(self.url, json=envelope, headers={"Idempotency-Key": envelope["id"]})

    def close(self):
        return None


class Courier:
    """Has a `deliver`, but not all of `Destination`: no implementation of it."""

    def deliver(self, envelope):
        requests.post("https://courier.example/parcels", json=envelope)
