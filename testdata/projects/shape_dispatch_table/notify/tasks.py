# jobcheck-test: select=JC201,JC401
from celery import shared_task

import requests

from notify import channels
from collections.abc import Callable

from notify.channels import CHANNELS, HANDLERS, MIXED, NAMES, READERS, send_email
from notify.models import Notification

HOOKS = [send_email]


@shared_task
def deliver(pk):
    """The channel's sender is taken from a tuple of the table, then the row is marked."""
    notification = Notification.objects.get(pk=pk)
    if not notification.sent:
        label, available, send = CHANNELS[notification.channel]
        if available():
            send(notification)  # expect: JC401
            notification.sent = True
            notification.save()


@shared_task
def run_hooks():
    for notification in Notification.objects.filter(sent=False):
        for hook in HOOKS:
            hook(notification)  # expect: JC401
        notification.sent = True
        notification.save()


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def forward(kind, payload):
    HANDLERS.get(kind)(payload)  # expect: JC201


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def forward_all(payload):
    for kind, handler in HANDLERS.items():
        handler(payload)  # expect: JC201


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def refresh(kind, payload):
    """A table of reads: nothing to repeat."""
    return READERS[kind](payload)


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def names():
    """A table of strings, and a table built here: neither names a function of the program."""
    local = {"webhook": print}
    for name in NAMES:
        local.get(name, print)(name)


@shared_task
def claim_first(pk):
    """The claim is saved before the send: quiet."""
    notification = Notification.objects.get(pk=pk)
    notification.sent = True
    notification.save()
    label, available, send = CHANNELS[notification.channel]
    send(notification)


def ping(payload):
    return requests.get("https://status.example/ping", params=payload).json()


def charge(payload):
    requests.post("https://pay.example/charge", json=payload)


LOCAL_HANDLERS = {"ping": ping, "charge": charge}


@shared_task(autoretry_for=(IOError,), max_retries=3)
def check(payload):
    """A literal key: the ping only."""
    return LOCAL_HANDLERS["ping"](payload)


@shared_task(autoretry_for=(IOError,), max_retries=3)
def run_named(kind, payload):
    """This module's own table, through `.get`."""
    LOCAL_HANDLERS.get(kind)(payload)  # expect: JC201


@shared_task(autoretry_for=(IOError,), max_retries=3)
def run_bound(kind, payload):
    handler = LOCAL_HANDLERS.get(kind)
    handler(payload)  # expect: JC201


@shared_task(autoretry_for=(IOError,), max_retries=3)
def run_through_module(kind, payload):
    """A table reached through its module."""
    channels.HANDLERS[kind](payload)  # expect: JC201


@shared_task(autoretry_for=(IOError,), max_retries=3)
def post_by_constant(payload):
    """A dict keyed by named constants: the literal key still picks its entry."""
    MIXED["post"](payload)  # expect: JC201


@shared_task(autoretry_for=(IOError,), max_retries=3)
def status_by_get(payload):
    """`.get` with a literal key on an imported table: that entry only (it reads)."""
    return MIXED.get("status")(payload)


@shared_task(autoretry_for=(IOError,), max_retries=3)
def annotated(kind, payload):
    handler: Callable[[dict], None] = HANDLERS[kind]
    handler(payload)  # expect: JC201
