import time

import requests
from django.core.management.base import BaseCommand


class Command(BaseCommand):  # expect: JC501
    help = "Backfill the order totals, in batches."

    def handle(self, *args, **options):
        # Quiet: one pass through the work, in batches, ending when none is left; sleep(0) yields.
        last = 0
        while True:
            batch = load_batch(after=last)
            if not batch:
                break
            for order in batch:
                requests.post("https://ledger.example/totals", json={"order": order})
                time.sleep(0)
            last = batch[-1]


def load_batch(after):
    return []
