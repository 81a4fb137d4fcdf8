# jobcheck-test: select=JC501
import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Sends what waits in the queue."

    def handle(self, *args, **options):
        requests.post("https://desk.example/drain", json={})
