# Dramatiq retries every actor by default, with exponential backoff from 15 s; from 0 ms it
# stays at 0.
import dramatiq
import requests


@dramatiq.actor(min_backoff=0, max_retries=10)  # expect: JC203
def charge_card(order_id):
    requests.post("https://pay.example.com/charge", json={"id": order_id}, timeout=10)


# Clean: the default (20 retries from 15 s, doubling), a short start that still doubles, a
# single retry, no retries.

@dramatiq.actor
def default_backoff(order_id):
    requests.post("https://pay.example.com/refund", json={"id": order_id}, timeout=10)


@dramatiq.actor(min_backoff=100, max_backoff=60_000)
def short_start_but_doubling(order_id):
    requests.post("https://pay.example.com/capture", json={"id": order_id}, timeout=10)


@dramatiq.actor(min_backoff=0, max_retries=1)
def one_retry(order_id):
    requests.post("https://pay.example.com/void", json={"id": order_id}, timeout=10)


@dramatiq.actor(max_retries=0, min_backoff=0)
def never_retried(order_id):
    requests.post("https://pay.example.com/void", json={"id": order_id}, timeout=10)
