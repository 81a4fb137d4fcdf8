import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Fill the cache (at boot: @reboot is not a schedule)."

    def handle(self, *args, **options):
        requests.get("https://cache.example/warm")
