# jobcheck-test: select=JC501
import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):  # expect: JC501
    def handle(self, *args, **options):
        requests.post("https://desk.example/audits", json={})
