# jobcheck-test: select=JC501
# Run by the Kubernetes manifest of `deploy/cronjob.yaml` (its container's `args`).
import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):  # expect: JC501
    help = "Relay the outbox's events to the broker"

    def handle(self, *args, **options):
        requests.post("https://broker.example/publish", json={"batch": 1})
