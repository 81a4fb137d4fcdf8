# jobcheck-test: select=JC501
# Quoted under a heading that does not name cron, whose paragraph (no blank line after the heading)
# says reports go out on a cron schedule: the paragraph is not the heading.
import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "List the reports"

    def handle(self, *args, **options):
        requests.get("https://reports.example/list")
