import time

from django.core.management.base import BaseCommand
from django.db import connection
from django.db.utils import OperationalError


class Command(BaseCommand):
    help = "Wait until the database accepts connections (run once, before migrate)."

    def handle(self, *args, **options):
        # Quiet: a start-up wait that returns once the database answers is no job.
        while True:
            try:
                connection.ensure_connection()
                return
            except OperationalError:
                time.sleep(1)
