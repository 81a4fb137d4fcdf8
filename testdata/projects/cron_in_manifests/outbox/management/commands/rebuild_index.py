# jobcheck-test: select=JC501
# Run by the manifest the README shows in a YAML block after a paragraph about cron.
import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):  # expect: JC501
    help = "Rebuild the search index"

    def handle(self, *args, **options):
        requests.put("https://search.example/index", json={"full": True})
