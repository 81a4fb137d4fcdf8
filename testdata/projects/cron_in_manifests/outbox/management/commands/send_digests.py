# jobcheck-test: select=JC501
# Run from the README's section whose heading says cron ("Run the worker (cron-friendly)").
import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):  # expect: JC501
    help = "Send the due digests"

    def handle(self, *args, **options):
        requests.post("https://mail.example/send", json={"due": True})
