import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):  # expect: JC501
    help = "Close tickets with no answer for a month."

    def handle(self, *args, **options):
        requests.post("https://helpdesk.example/close-stale")
