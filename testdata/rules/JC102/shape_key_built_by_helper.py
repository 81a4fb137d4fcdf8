# jobcheck-test: select=JC102,JC201
# A key header built by a helper from what it is given (Standard Webhooks: `webhook-id` is the
# message's id, the same on every redelivery): the key is what the caller passes. Minted per
# attempt, every retry is a new message to the receiver (JC102 where it is minted); derived from
# the work, the receiver deduplicates. Either way the POST carries a key, so JC201 stays quiet.
import secrets

import httpx
from celery import shared_task


def _build_headers(msg_id, signature):
    return {"webhook-id": msg_id, "webhook-signature": signature, "content-type": "application/json"}


def _generate_msg_id():
    return f"msg_{secrets.token_urlsafe(16)}"


def notify(url, payload, signature):
    msg_id = _generate_msg_id()  # expect: JC102
    return httpx.post(url, headers=_build_headers(msg_id, signature), content=payload)


def notify_once(url, event_id, payload, signature):
    return httpx.post(url, headers=_build_headers(f"msg_{event_id}", signature), content=payload)


@shared_task(autoretry_for=(httpx.HTTPError,), max_retries=3)
def notify_event(url, event_id, payload, signature):
    notify(url, payload, signature)
    notify_once(url, event_id, payload, signature)
