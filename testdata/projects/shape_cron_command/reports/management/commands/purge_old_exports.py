from django.core.management.base import BaseCommand

from reports.models import Subscriber


class Command(BaseCommand):  # expect: JC501
    help = "Delete exports older than --days days."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=30)

    def handle(self, *args, **options):
        # Retention upkeep: removing what is old exists to be run again and again.
        Subscriber.objects.filter(email__endswith=".old").delete()
