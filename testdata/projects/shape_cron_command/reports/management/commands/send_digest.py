# jobcheck-test: select=JC201,JC501
from django.core.mail import send_mail
from django.core.management.base import BaseCommand

from reports.models import Subscriber


class Command(BaseCommand):  # expect: JC501
    help = "Email the daily digest to every subscriber. Run from cron every morning (see crontab)."

    def handle(self, *args, **options):
        for subscriber in Subscriber.objects.filter(active=True):
            send_mail("Digest", "body", "news@example.com", [subscriber.email])
