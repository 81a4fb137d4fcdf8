"""A vendor's delivery or event id header (`X-GitHub-Delivery`, `X-Shop-Event-Id`), the same on
every redelivery, is the receiver's idempotency key, also on a request built for an opener; a
header naming the event's type (`X-Shop-Event`) is not."""

import urllib.request

import requests
from celery import shared_task


@shared_task(autoretry_for=(Exception,), max_retries=5, retry_backoff=True)
def deliver(delivery):
    headers = {"Content-Type": "application/json", "X-Shop-Event": delivery.event, "X-Shop-Delivery": str(delivery.event_id)}
    request = urllib.request.Request(delivery.url, data=delivery.body, headers=headers, method="POST")
    with urllib.request.build_opener().open(request, timeout=10) as response:
        return response.status


@shared_task(autoretry_for=(Exception,), max_retries=5, retry_backoff=True)
def deliver_event(delivery):
    requests.post(delivery.url, json=delivery.payload, headers={"X-Shop-Event-Id": str(delivery.event_id)}, timeout=10)


@shared_task(autoretry_for=(Exception,), max_retries=5, retry_backoff=True)
def deliver_typed_only(delivery):
    headers = {"Content-Type": "application/json", "X-Shop-Event": delivery.event}
    request = urllib.request.Request(delivery.url, data=delivery.body, headers=headers, method="POST")
    with urllib.request.build_opener().open(request, timeout=10) as response:  # expect: JC201
        return response.status


@shared_task(autoretry_for=(Exception,), max_retries=5, retry_backoff=True)
def deliver_with_request_id(delivery):
    requests.post(delivery.url, json=delivery.payload, headers={"X-Request-Id": delivery.trace}, timeout=10)  # expect: JC201
