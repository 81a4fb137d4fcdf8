import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Export ticket statistics."

    def handle(self, *args, **options):
        requests.post("https://helpdesk.example/export")
