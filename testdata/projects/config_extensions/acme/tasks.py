import tenacity
from celery import shared_task

from acme import gateway
from acme.dedupe import once
from acme.jobs import nightly
from acme.mailer import Mailer

mailer = Mailer()


@nightly
def nightly_digest(user_id):  # expect: JC501
    mailer.deliver(user_id, "digest")


@shared_task(autoretry_for=(Exception,), max_retries=3)
def remind(user_id):  # expect: JC501
    mailer.deliver(user_id, "reminder")  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def remind_once(user_id):  # expect: JC501
    if not once(f"remind-{user_id}"):
        return
    mailer.deliver(user_id, "reminder")


@tenacity.retry(stop=tenacity.stop_after_attempt(3))
def charge(order_id, amount):
    gateway.charge_card(order_id, amount)  # expect: JC201
