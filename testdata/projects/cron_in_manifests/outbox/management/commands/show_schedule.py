# jobcheck-test: select=JC501
# Quoted in the README's section on cron expressions, which is about syntax: nothing runs it.
import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Show when the next runs are"

    def handle(self, *args, **options):
        requests.get("https://status.example/next")
