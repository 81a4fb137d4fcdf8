# jobcheck-test: select=JC101,JC102
# A key hashed from parts the function feeds into it (`digest.update(...)`, a list it appends
# to): the key holds each part, so a part read from the clock makes a new key on every attempt.
# Parts that come from the work give the same key each time.
import datetime
from base64 import b64encode
from hashlib import sha256

import stripe
from celery import shared_task


def datetime_or_now(at=None):
    value = at
    if not value:
        value = datetime.datetime.now()
    return value


def key_of(*parts):
    digest = sha256()
    parts = list(parts)
    parts.append(datetime_or_now())
    digest.update("|".join(str(p) for p in parts).encode())
    return b64encode(digest.digest()).decode()


def key_of_work(*parts):
    digest = sha256()
    for part in parts:
        digest.update(str(part).encode())
    return digest.hexdigest()


@shared_task(autoretry_for=(stripe.error.APIConnectionError,), max_retries=3)
def charge_renewal(subscription_id, amount):
    idempotency_key = key_of(subscription_id, amount)  # expect: JC101
    stripe.PaymentIntent.create(amount=amount, idempotency_key=idempotency_key)


@shared_task(autoretry_for=(stripe.error.APIConnectionError,), max_retries=3)
def charge_invoice(invoice_id, amount):
    idempotency_key = key_of_work(invoice_id, amount)
    stripe.PaymentIntent.create(amount=amount, idempotency_key=idempotency_key)
