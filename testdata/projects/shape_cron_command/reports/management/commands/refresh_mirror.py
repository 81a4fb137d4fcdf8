"""Backfill or periodically refresh the local mirror of the payment provider's records.

    python manage.py refresh_mirror --only payments

Webhooks keep rows fresh as events happen; this command is the safety net (cron) for a missed one.
"""

from django.core.management.base import BaseCommand


class Command(BaseCommand):  # expect: JC501
    help = "Refresh the local mirror."

    def handle(self, *args, **options):
        print("refreshed")
