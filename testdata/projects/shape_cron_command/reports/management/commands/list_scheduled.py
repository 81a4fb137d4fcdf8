# jobcheck-test: select=JC501
"""Lists the subscribers.

Shows every subscriber, including those whose renewal is scheduled. Run it by hand when support asks.
"""
from django.core.management.base import BaseCommand

from reports.models import Subscriber


class Command(BaseCommand):
    help = "List the subscribers."

    def handle(self, *args, **options):
        for subscriber in Subscriber.objects.all():
            self.stdout.write(str(subscriber))
