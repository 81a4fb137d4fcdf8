# jobcheck-test: select=JC201,JC501
"""Public functions the views call; each puts its private worker function on a queue."""
from functools import partial

import django_rq
import requests
from django.core.mail import send_mail
from rq import Retry

from accounts.queues import low


def _send_welcome(user_id, address):  # expect: JC501
    send_mail("Welcome", "body", "hi@example.com", [address])  # expect: JC201


def send_welcome(user_id, address):
    return low.enqueue(_send_welcome, user_id, address, retry=Retry(max=3, interval=[60, 300]))


def _sync_profile(user_id, source):  # expect: JC501
    requests.post("https://crm.example/profiles", json={"id": user_id, "source": source})  # expect: JC201


def sync_profile(user_id):
    queue = django_rq.get_queue("default")
    return queue.enqueue_call(func=partial(_sync_profile, source="web"), args=(user_id,), retry=Retry(max=2))


def _export(user_id):  # expect: JC501
    requests.post("https://warehouse.example/exports", json={"id": user_id})  # not retried


def export(user_id):
    return django_rq.enqueue(_export, user_id)


def _render_preview(user_id):
    requests.post("https://render.example/preview", json={"id": user_id})


def render_preview(user_id):
    """A look-alike public wrapper: it calls the private function here, in the request."""
    return _render_preview(user_id)
