import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):  # expect: JC501
    help = "Rebuild the search index (run nightly by deploy/rebuild_index.sh)."

    def handle(self, *args, **options):
        requests.put("https://search.example/index/_rebuild")
