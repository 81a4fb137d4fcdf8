# jobcheck-test: select=JC501
"""Sends every queued issue to every active subscriber.

Meant to run on a plain schedule (cron or a systemd timer), not as a long-lived daemon.
"""
from django.core.management.base import BaseCommand

from reports.models import Subscriber


class Command(BaseCommand):  # expect: JC501
    help = "Send every queued issue to every active subscriber."

    def handle(self, *args, **options):
        Subscriber.objects.filter(active=True).update(sent=True)
