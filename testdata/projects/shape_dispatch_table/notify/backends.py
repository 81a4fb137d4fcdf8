# jobcheck-test: select=JC201,JC401
"""Backends: the base leaves `send` to its subclasses, and a table holds the classes. A call to
the base's `send` runs one of the overrides; the table's `send_multiple` is the base's."""
import abc

import requests
from celery import shared_task
from django.core.mail import send_mail


class Backend:
    slug = "base"

    @classmethod
    def send(cls, notification):
        raise NotImplementedError

    @classmethod
    def send_multiple(cls, notifications):
        for notification in notifications:
            cls.send(notification)  # expect: JC401
            notification.processed = True
            notification.save()


class EmailBackend(Backend):
    slug = "email"

    @classmethod
    def send(cls, notification):
        send_mail("Notice", notification.body, "ops@example.com", [notification.email])


class PushBackend(Backend):
    slug = "push"

    @classmethod
    def send(cls, notification):
        requests.post("https://push.example/", json={"id": notification.pk})


BACKENDS = [EmailBackend, PushBackend]


@shared_task
def send_all(notifications):
    for backend in BACKENDS:
        backend.send_multiple(notifications)


class Source(abc.ABC):
    @abc.abstractmethod
    def fetch(self, feed): ...

    def refresh(self, feed):
        return self.fetch(feed)


class HttpSource(Source):
    def fetch(self, feed):
        return requests.get(feed.url).text


SOURCES = {"http": HttpSource}


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def refresh_feed(kind, feed):
    """The only override reads: nothing to repeat."""
    return SOURCES[kind]().refresh(feed)


class Pinger(abc.ABC):
    @abc.abstractmethod
    def ping(self, feed): ...

    def run(self, feed):
        self.ping(feed)


class WebhookPinger(Pinger):
    def ping(self, feed):
        requests.post(feed.hook, json={"feed": feed.pk})


PINGERS = {"webhook": WebhookPinger}


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def ping_feed(kind, feed):
    PINGERS[kind]().run(feed)  # expect: JC201
