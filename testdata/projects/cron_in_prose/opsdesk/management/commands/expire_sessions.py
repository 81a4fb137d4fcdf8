# jobcheck-test: select=JC501
# Quoted in a paragraph that says nothing of cron (`docs/cron.md`): not scheduled.
import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    def handle(self, *args, **options):
        requests.post("https://desk.example/sessions/expire", json={})
