import time

import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Send what the outbox holds, as fast as it can."

    def handle(self, *args, **options):
        # Quiet: sleep(0) only yields; a loop that never waits between rounds is no schedule.
        while True:
            for message in pending():
                requests.post("https://mail.example/send", json={"id": message})
            time.sleep(0)


def pending():
    return []
