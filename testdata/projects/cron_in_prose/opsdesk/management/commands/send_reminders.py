# jobcheck-test: select=JC501
# Quoted alone in a paragraph about cron (`docs/cron.md`): a name only a command has (an
# underscore), first in what is quoted, runs that Django command on the schedule.
import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):  # expect: JC501
    def handle(self, *args, **options):
        requests.post("https://desk.example/reminders", json={})
