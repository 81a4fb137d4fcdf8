# Keys minted per attempt inside the job, and keys minted once outside it.
import secrets
import uuid
from uuid import uuid4

import boto3
import stripe
from celery import shared_task
from django.db import models

from shop.models import Outbox

sqs = boto3.client("sqs")


@shared_task(autoretry_for=(Exception,), max_retries=3)
def refund(charge_id, amount):
    stripe.Refund.create(charge=charge_id, amount=amount, idempotency_key=str(uuid.uuid4()))  # expect: JC102


@shared_task
def enqueue_event(order_id):
    dedup = uuid4().hex  # expect: JC102
    sqs.send_message(QueueUrl="q", MessageBody=str(order_id), MessageDeduplicationId=dedup, MessageGroupId="orders")


@shared_task
def write_outbox(order_id):
    # A fresh outbox row with a fresh key on every run: two runs, two rows, two sends.
    Outbox.objects.create(key=secrets.token_hex(8), payload={"order": order_id})  # expect: JC102


def make_key():
    return str(uuid.uuid4())


@shared_task
def via_helper(order_id):
    idempotency_key = make_key()  # expect: JC102
    stripe.PaymentIntent.create(amount=100, idempotency_key=idempotency_key)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def refund_with_key(charge_id, amount, refund_key):
    # Minted once at enqueue time and passed in: the correct idiom.
    stripe.Refund.create(charge=charge_id, amount=amount, idempotency_key=refund_key)


def request_refund(charge_id, amount):
    refund_with_key.delay(charge_id, amount, refund_key=str(uuid.uuid4()))


@shared_task
def derived_uuid(order_id):
    # uuid5 of the work is deterministic.
    key = str(uuid.uuid5(uuid.NAMESPACE_URL, f"order/{order_id}/charge"))
    stripe.PaymentIntent.create(amount=100, idempotency_key=key)


@shared_task
def random_not_a_key(order_id):
    # A random value that is not a key (a nonce for a filename) is none of our business.
    token = uuid.uuid4().hex
    Outbox.objects.create(payload={"order": order_id, "file": f"export-{token}.csv"}, key=f"export-{order_id}")


class Delivery(models.Model):
    # A model field default: set once when the row is created, a stable key after that.
    key = models.UUIDField(default=uuid.uuid4, unique=True)
