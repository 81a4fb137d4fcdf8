from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Copy new messages from the mailbox."

    def handle(self, *args, **options):
        return None
