# jobcheck-test: select=JC201
"""Types from annotations: a return annotation types what a function gives when its body does not
say (`return self.client`), and what the body returns or a value is, where it says, wins over an
annotation that names an interface (`-> Notifier` returning `SlackNotifier()`)."""
from __future__ import annotations

from typing import Optional, Protocol

import requests
from celery import shared_task


class Notifier(Protocol):
    def send(self, msg): ...


class SlackNotifier:
    def send(self, msg):
        requests.post("https://hooks.slack.example", json=msg)


class Mailer:
    def deliver(self, msg):
        requests.post("https://mail.example/send", json=msg)


def get_notifier() -> Notifier:
    return SlackNotifier()


class Holder:
    def __init__(self, mailer):
        self.mailer = mailer
        self.notifier: Optional[Notifier] = SlackNotifier()

    def get_mailer(self) -> "Mailer":
        return self.mailer


@shared_task(autoretry_for=(Exception,), max_retries=3)
def notify(msg):
    get_notifier().send(msg)  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def mail(holder: Holder, msg):
    holder.get_mailer().deliver(msg)  # expect: JC201
    holder.notifier.send(msg)  # expect: JC201
