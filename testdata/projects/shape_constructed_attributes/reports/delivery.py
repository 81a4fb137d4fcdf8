"""Delivery methods: a base with the common steps, and subclasses that send."""
import smtplib

import requests


class DeliveryMethod:
    def __init__(self, config):
        self.config = config

    def send(self, files):
        """The common steps (compression); the subclasses send."""
        return [f"{name}.zip" for name in files]


class EmailDelivery(DeliveryMethod):
    def send(self, files):
        names = super().send(files)
        with smtplib.SMTP(self.config["host"]) as smtp:
            smtp.sendmail("reports@example.org", [self.config["to"]], "\n".join(names))


class WebhookDelivery(DeliveryMethod):
    def send(self, files):
        requests.post(self.config["url"], json=super().send(files), timeout=10)


class Archive:
    """Not a delivery method: kept files go to local disk."""

    def send(self, files):
        return list(files)
