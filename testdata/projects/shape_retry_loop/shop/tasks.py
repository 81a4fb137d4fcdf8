# jobcheck-test: select=JC201,JC202,JC203
"""Retries written by hand: a loop that tries the work, leaves when it succeeds and goes round
again when it fails. What its `try` does runs again."""
import itertools
import logging
import smtplib
import time

import requests
from celery import shared_task

from shop.notify import post_with_retries

logger = logging.getLogger(__name__)


@shared_task
def push_order(order_id):
    for attempt in range(5):  # expect: JC203
        try:
            response = requests.post("https://erp.example/orders", json={"id": order_id}, timeout=10)  # expect: JC201
            response.raise_for_status()
            return response.json()
        except requests.RequestException:
            logger.warning("attempt %s failed", attempt)
    raise RuntimeError("the ERP did not answer")


@shared_task
def send_receipt(message):
    while True:  # expect: JC202
        try:
            with smtplib.SMTP("mail.example") as smtp:
                smtp.send_message(message)  # expect: JC201
            break
        except smtplib.SMTPException:
            time.sleep(30)


@shared_task
def notify_partner(event_id):
    post_with_retries("https://partner.example/events", {"id": event_id})


@shared_task
def publish_forever(event):
    for attempt in itertools.count():  # expect: JC202
        try:
            requests.post("https://bus.example/events", json=event, timeout=5)  # expect: JC201
        except requests.ConnectionError:
            time.sleep(min(60, 2 ** attempt))
            continue
        break


@shared_task
def until_sent(event):
    sent = False
    while not sent:  # expect: JC202
        try:
            requests.post("https://bus.example/events", json=event, timeout=5)  # expect: JC201
            sent = True
            break
        except requests.Timeout:
            time.sleep(10)


# Clean: the same shapes where nothing runs twice, or nothing is written.


@shared_task
def push_with_key(order_id):
    """The key is derived from the order: the ERP answers a repeat with the first result."""
    for attempt in range(5):
        try:
            response = requests.post("https://erp.example/orders", json={"id": order_id},
                                     headers={"Idempotency-Key": f"order-{order_id}"}, timeout=10)
            response.raise_for_status()
            return response.json()
        except requests.RequestException:
            time.sleep(2 ** attempt)
    raise RuntimeError("the ERP did not answer")


@shared_task
def push_each(order_ids):
    """A try per item: one bad order does not stop the batch; nothing goes round again."""
    for order_id in order_ids:
        try:
            requests.post("https://erp.example/orders", json={"id": order_id}, timeout=10)
        except requests.RequestException:
            logger.exception("order %s not pushed", order_id)


@shared_task
def fetch_rates():
    """A read retried at once: no effect is repeated, and a read is no job's storm to report."""
    for _ in range(3):
        try:
            return requests.get("https://rates.example/latest", timeout=5).json()
        except requests.RequestException:
            pass
    return None


@shared_task
def wait_for_database(connect):
    """Waiting for a dependency to come up makes no effect: no unbounded retry to report."""
    while True:
        try:
            return connect()
        except OSError:
            time.sleep(5)


@shared_task
def give_up_at_once(order_id):
    """The handler always raises: the loop never goes round after a failure."""
    for attempt in range(3):
        try:
            requests.post("https://erp.example/orders", json={"id": order_id}, timeout=10)
            break
        except requests.RequestException:
            raise


@shared_task
def stop_after_five(event):
    """`while True` with an exit in its handler is bounded; it backs off (JC203 quiet)."""
    attempt = 0
    while True:  # JC201 below: a timed-out POST is sent again
        try:
            requests.post("https://bus.example/events", json=event, timeout=5)  # expect: JC201
            return
        except requests.RequestException:
            attempt += 1
            if attempt > 5:
                raise
            time.sleep(2 ** attempt)


@shared_task
def rejected_is_final(message):
    """What the loop catches is the server's refusal (the message was not taken): sending again
    repeats nothing that happened."""
    for attempt in range(3):
        try:
            with smtplib.SMTP("mail.example") as smtp:
                smtp.send_message(message)
            return
        except smtplib.SMTPRecipientsRefused:
            time.sleep(60)


@shared_task
def hook(payload):
    from shop.notify import Webhook

    webhook = Webhook("https://hooks.example/in")
    webhook.send(payload)
    webhook.deliver(payload)
    webhook.deliver_pages([payload])
    webhook.deliver_each([payload])
