# jobcheck-test: select=JC501
"""The renewals command is intended to be run as part of an automated script run at least once a
day. It extends active subscriptions and creates the charges of new periods.

Every step is idempotent: calling it twice for the same day makes each charge once.
"""
from django.core.management.base import BaseCommand

from reports.models import Subscriber


class Command(BaseCommand):  # expect: JC501
    help = "Extend subscriptions and charge due balances."

    def handle(self, *args, **options):
        Subscriber.objects.filter(active=True).update(renewed=True)
