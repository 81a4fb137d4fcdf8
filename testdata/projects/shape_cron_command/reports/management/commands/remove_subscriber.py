from django.core.management.base import BaseCommand

from reports.models import Subscriber


class Command(BaseCommand):
    help = "Remove one subscriber by address."

    def add_arguments(self, parser):
        parser.add_argument("email")

    def handle(self, *args, **options):
        # Quiet: a one-off removal, asked for by hand.
        Subscriber.objects.filter(email=options["email"]).delete()
