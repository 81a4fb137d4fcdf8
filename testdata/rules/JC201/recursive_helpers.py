# Helpers that call each other: what a job reaches through them does not depend on which job
# the analysis walks first. `second` enters the cycle at `relay`, after `first` entered it at
# `notify`: both reach the post in `notify`.
import requests
from celery import shared_task


def notify(order):
    requests.post("https://partner.example/hook", json=order)
    relay(order.get("next"))


def relay(order):
    if order:
        notify(order)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def first(order):
    notify(order)  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def second(order):
    relay(order)  # expect: JC201


# The same cycle with the post keyed by the work: guarded wherever the walk enters.
def notify_once(order):
    requests.post("https://partner.example/hook", json=order, headers={"Idempotency-Key": f"order-{order['id']}"})
    relay_once(order.get("next"))


def relay_once(order):
    if order:
        notify_once(order)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def first_keyed(order):
    notify_once(order)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def second_keyed(order):
    relay_once(order)
