# jobcheck-test: select=JC201
# A loop that takes each round's item from a call and ends when the call gives none moves its
# source on every round: a retry raised in a later round, or after the loop, starts a run that pulls
# new items, so it repeats no effect of an earlier round. A retry later in the same round does, and
# so does one over a collection, or over pages the loop counts itself (run again, it starts over).
# An exception named for a rate limit says the far end refused the request: the effect that raised
# it did nothing.
import requests
from celery import shared_task

from .feeds import RateLimitExceeded, fetch_next_killmail, fetch_page, pending_orders


class WebhookRateLimited(Exception):
    pass


@shared_task(bind=True)
def forward_killmails(self):
    while True:
        km = None
        try:
            km = fetch_next_killmail()
        except RateLimitExceeded as exc:
            raise self.retry(exc=exc, countdown=60)
        if not km:
            break
        requests.post("https://hooks.example/killmail", json=km)


@shared_task(bind=True, max_retries=5)
def send_queued(self, webhook):
    for _ in range(50):
        message = webhook.dequeue_message()
        if not message:
            break
        try:
            requests.post(webhook.url, json=message)
        except WebhookRateLimited as exc:
            webhook.enqueue_message(message)
            raise self.retry(exc=exc)
    if webhook.messages_queued():
        raise self.retry(countdown=2)


@shared_task(bind=True)
def forward_then_check(self):
    while True:
        km = fetch_next_killmail()
        if km is None:
            break
        requests.post("https://hooks.example/killmail", json=km)  # expect: JC201
        try:
            requests.get("https://hooks.example/ack")
        except requests.ConnectionError as exc:
            raise self.retry(exc=exc)


@shared_task(bind=True)
def export_pages(self):
    page = 1
    while True:
        rows = fetch_page(page)
        if not rows:
            break
        try:
            requests.post("https://warehouse.example/rows", json=rows)  # expect: JC201
        except requests.ConnectionError as exc:
            raise self.retry(exc=exc)
        page += 1


@shared_task(bind=True)
def push_orders(self):
    for order in pending_orders():
        try:
            requests.post("https://erp.example/orders", json=order)  # expect: JC201
        except requests.ConnectionError as exc:
            raise self.retry(exc=exc)
