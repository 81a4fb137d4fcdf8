import time

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Keep the container alive for debugging."

    def handle(self, *args, **options):
        # Quiet: a loop that only sleeps does no work.
        while True:
            time.sleep(3600)
