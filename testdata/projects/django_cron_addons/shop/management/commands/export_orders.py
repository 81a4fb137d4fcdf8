# jobcheck-test: select=JC501
import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Export the day's orders to the warehouse."

    def handle(self, *args, **options):  # expect: JC501
        requests.post("https://warehouse.example/orders")
