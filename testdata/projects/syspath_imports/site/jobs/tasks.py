# The application runs with site/ on sys.path, so it imports `core...`, not `site.core...`.
from celery import shared_task

from core.mailer import notify


@shared_task(autoretry_for=(Exception,), max_retries=3)
def welcome(address):  # expect: JC501
    notify(address)  # expect: JC201
