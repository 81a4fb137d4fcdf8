# jobcheck-test: select=JC501
# Named by a Deployment's init container and by the README's setup block: run once, by hand.
import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Load the demo fixtures"

    def handle(self, *args, **options):
        requests.post("https://demo.example/load")
