import time

import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):  # expect: JC501
    help = "Fetch new mail from every mailbox and file it as tickets."

    def handle(self, *args, **options):
        # A daemon: the service manager keeps it running, each round is a run of the job.
        while True:
            for message in fetch_new():
                requests.post("https://tickets.example/api/tickets", json={"body": message})
            time.sleep(60)


def fetch_new():
    return []
