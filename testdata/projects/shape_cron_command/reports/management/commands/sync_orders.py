import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):  # expect: JC501
    """Pull new orders from the shop. Scheduled in the crontab every 15 minutes."""

    def add_arguments(self, parser):
        parser.add_argument("--since", default="15m")

    def handle(self, *args, since="15m", **options):
        requests.post("https://shop.example/orders/export", json={"since": since})
