# jobcheck-test: select=JC201
# A retried method calls the callable its object was constructed with (`self._send = send`): the
# effect is what the constructions pass (`Notifier(send=post_webhook)`).
import requests
from celery import shared_task
from tenacity import retry, stop_after_attempt


class Notifier:
    def __init__(self, send):
        self._send = send

    @retry(stop=stop_after_attempt(3))
    def notify(self, event):
        self._send(event)  # expect: JC201


def post_webhook(event):
    requests.post("https://hooks.example/events", json=event)


def log_only(event):
    print(event)


class Recorder:
    def __init__(self, sink):
        self._sink = sink

    @retry(stop=stop_after_attempt(3))
    def record(self, event):
        self._sink(event)


@shared_task
def announce(event):
    Notifier(send=post_webhook).notify(event)
    Recorder(log_only).record(event)
