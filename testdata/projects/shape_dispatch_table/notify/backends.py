# jobcheck-test: select=JC201,JC401
"""Tables of classes: `BACKENDS[kind].deliver(...)` runs that method of each class the table
holds. A method a base leaves to its subclasses is not followed into them: which subclass runs
is not known where the base calls it."""
import requests
from celery import shared_task
from django.core.mail import send_mail


class EmailBackend:
    @classmethod
    def deliver(cls, notification):
        send_mail("Notice", notification.body, "ops@example.com", [notification.email])


class PushBackend:
    @classmethod
    def deliver(cls, notification):
        requests.post("https://push.example/", json={"id": notification.pk})


class StatusBackend:
    @classmethod
    def deliver(cls, notification):
        return requests.get("https://status.example/", params={"id": notification.pk}).json()


BACKENDS = {"email": EmailBackend, "push": PushBackend, "status": StatusBackend}


@shared_task
def send_all(notifications):
    for notification in notifications:
        for backend in BACKENDS.values():
            backend.deliver(notification)  # expect: JC401
        notification.processed = True
        notification.save()


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def check_status(notification):
    """A literal key names one entry: the status backend only reads."""
    return BACKENDS["status"].deliver(notification)


class Notifier:
    def send(self, notification):
        raise NotImplementedError

    def run(self, notification):
        self.send(notification)


class EmailNotifier(Notifier):
    def send(self, notification):
        send_mail("Notice", notification.body, "ops@example.com", [notification.email])


class WebhookNotifier(Notifier):
    def send(self, notification):
        requests.post("https://hook.example/", json={"id": notification.pk})


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def email_only(notification):
    """Which override `Notifier.run` reaches depends on the instance: not guessed (no webhook)."""
    EmailNotifier().run(notification)


class Exporter:
    def export(self, fmt):
        if fmt == "csv":
            return "a,b"
        raise NotImplementedError(fmt)


class S3Exporter(Exporter):
    def export(self, fmt):
        requests.post("https://s3.example/x", data=super().export(fmt))


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def export_csv():
    """A method that raises only for what it does not handle is not left to subclasses."""
    return Exporter().export("csv")
