from django.core.management.base import BaseCommand

from reports.notifier import Notifier


class Command(BaseCommand):  # expect: JC501
    help = "Start the notifier."

    def handle(self, *args, **options):
        # A daemon too: the worker's loop it starts runs until the process is stopped.
        self.stdout.write("Starting the notifier ...")
        Notifier().run()
