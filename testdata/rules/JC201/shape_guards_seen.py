# Guards seen in real applications: an effect gated on `get_or_create`'s `created` flag, an
# idempotency key carried in the JSON body, a Standard Webhooks `webhook-id` header (the receiver
# deduplicates on it). Each is quiet; the look-alikes without the guard are reported.
import hashlib

import requests
from celery import shared_task
from django.core.mail import send_mail

from accounts.models import WelcomeEmail


@shared_task(autoretry_for=(Exception,), max_retries=3)
def welcome_once(user_id, address):
    _, created = WelcomeEmail.objects.get_or_create(user_id=user_id)
    if not created:
        return
    send_mail("Welcome", "Hi", "team@example.com", [address])


@shared_task(autoretry_for=(Exception,), max_retries=3)
def welcome_if_created(user_id, address):
    record, created = WelcomeEmail.objects.get_or_create(user_id=user_id, defaults={"address": address})
    if created:
        send_mail("Welcome", "Hi", "team@example.com", [address])


@shared_task(autoretry_for=(Exception,), max_retries=3)
def welcome_ignoring_created(user_id, address):
    WelcomeEmail.objects.get_or_create(user_id=user_id)
    send_mail("Welcome", "Hi", "team@example.com", [address])  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def key_in_json_body(order_id):
    requests.post(
        "https://psp.example/payouts",
        json={"order": order_id, "idempotency_key": f"payout-{order_id}"},
    )


@shared_task(autoretry_for=(Exception,), max_retries=3)
def key_in_json_variable(order_id):
    body = {"order": order_id, "idempotencyKey": f"payout-{order_id}"}
    requests.post("https://psp.example/payouts", json=body)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def no_key_in_json_body(order_id):
    requests.post("https://psp.example/payouts", json={"order": order_id, "amount": 10})  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=5)
def deliver_webhook(endpoint, event_id, payload, signature, timestamp):
    requests.post(
        endpoint,
        json=payload,
        headers={"webhook-id": f"msg_{event_id}", "webhook-timestamp": str(timestamp), "webhook-signature": signature},
    )


@shared_task(autoretry_for=(Exception,), max_retries=5)
def deliver_webhook_without_id(endpoint, payload, signature):
    digest = hashlib.sha256(signature.encode()).hexdigest()
    requests.post(endpoint, json=payload, headers={"webhook-signature": digest})  # expect: JC201


# Look-alikes where the effect does not wait for `created`.
@shared_task(autoretry_for=(Exception,), max_retries=3)
def welcome_after_created_check(user_id, address):
    _, created = WelcomeEmail.objects.get_or_create(user_id=user_id)
    if created:
        print("first welcome")
    send_mail("Welcome", "Hi", "team@example.com", [address])  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def welcome_unless_created(user_id, address):
    _, created = WelcomeEmail.objects.get_or_create(user_id=user_id)
    if created:
        return
    send_mail("Welcome back", "Hi", "team@example.com", [address])  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def welcome_if_record(user_id, address):
    record, created = WelcomeEmail.objects.get_or_create(user_id=user_id)
    if record:
        send_mail("Welcome", "Hi", "team@example.com", [address])  # expect: JC201
