# A webhook body that names the message (`notification_id`, `delivery_id`, a Standard Webhooks
# style id) is the same on every retry: receivers deduplicate on it. Also when a method of an
# object the analysis cannot type builds the body: every implementation of that name must put
# the id in (a base that raises NotImplementedError builds nothing).
import uuid

import requests
from celery import shared_task


class WebhookEvent:
    def build_payload(self, entry):
        raise NotImplementedError()


class OrderPaid(WebhookEvent):
    def build_payload(self, entry):
        return {"notification_id": entry.pk, "order": entry.order_code}


class OrderCheckin(OrderPaid):
    def build_payload(self, entry):
        body = super().build_payload(entry)
        body["checkin"] = entry.checkin_id
        return body


class Ping:
    def describe(self, entry):
        return {"delivery_id": entry.pk}


class Pong:
    def describe(self, entry):
        return {"text": entry.text}  # no id: a receiver cannot tell a repeat


def event_types():
    return {"paid": OrderPaid(), "checkin": OrderCheckin()}


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5, retry_backoff=True)
def send_webhook(entry_id, action):
    entry = load(entry_id)
    payload = event_types().get(action).build_payload(entry)
    requests.post("https://hooks.example/in", json=payload)


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5, retry_backoff=True)
def send_direct(entry_id):
    requests.post("https://hooks.example/in", json={"notification_id": entry_id, "kind": "paid"})


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5, retry_backoff=True)
def send_described(entry_id, kind):
    described = pick(kind).describe(load(entry_id))
    requests.post("https://hooks.example/in", json=described)  # expect: JC201


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5, retry_backoff=True)
def send_minted(entry_id):
    body = {"message_id": str(uuid.uuid4()), "entry": entry_id}  # a new id on every attempt
    requests.post("https://hooks.example/in", json=body)  # expect: JC201


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5, retry_backoff=True)
def send_plain(entry_id):
    requests.post("https://hooks.example/in", json={"entry": entry_id})  # expect: JC201


def load(entry_id):
    return entry_id


def pick(kind):
    return {"ping": Ping(), "pong": Pong()}[kind]


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5, retry_backoff=True)
def send_minted_inline(entry_id):
    requests.post("https://hooks.example/in", json={"message_id": uuid.uuid4().hex, "entry": entry_id})  # expect: JC201


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5, retry_backoff=True)
def send_keyed_later(entry_id):
    body = {"entry": entry_id}
    body["delivery_id"] = f"entry-{entry_id}"  # the dict as sent has the id
    requests.post("https://hooks.example/in", json=body)
