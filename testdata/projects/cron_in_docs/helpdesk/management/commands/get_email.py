# jobcheck-test: select=JC501
import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):  # expect: JC501
    help = "Fetch new tickets from the configured mailboxes."

    def handle(self, *args, **options):
        requests.post("https://mail.example/fetch")
