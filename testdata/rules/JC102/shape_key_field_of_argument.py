# jobcheck-test: select=JC101,JC102
# A helper that records a key read from a field of what it is given (`data.idempotency_key`):
# the key is what the caller built that field from, not everything else in the object. A review
# link's random token and the clock in its payload are data; the key is the message and the
# reviewer. Built from a fresh token, the field is a new key on every attempt.
import secrets
from datetime import datetime, timezone

from celery import shared_task

from notices.models import Event


def make_token():
    return secrets.token_urlsafe(32)


class EventIn:
    def __init__(self, name, data, idempotency_key):
        self.name = name
        self.data = data
        self.idempotency_key = idempotency_key


def ingest(session, data):
    values = {"idempotency_key": data.idempotency_key, "received_at": datetime.now(timezone.utc)}
    session.add(Event(**values))


@shared_task
def request_review(session, message_id, reviewers):
    for reviewer in reviewers:
        token = make_token()
        payload = {"review_url": f"https://example.com/review/{token}", "sent_at": datetime.now()}
        ingest(session, EventIn(name="review", data=payload, idempotency_key=f"{message_id}:{reviewer}"))


@shared_task
def request_fresh(session, message_id):
    ingest(session, EventIn(name="review", data={}, idempotency_key=make_token()))  # expect: JC102
