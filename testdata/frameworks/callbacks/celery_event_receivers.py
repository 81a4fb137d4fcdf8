# jobcheck-test: select=JC501
# Celery's event receiver calls its handlers for each event the workers send, by event type or
# for all (`"*"`). A dict of handlers handed to something else is nobody's consumer.
import requests
from celery import Celery

app = Celery("monitor")


def on_failed(event):  # expect: JC501
    requests.post("https://alerts.example/failed", json={"uuid": event["uuid"]})


class Recorder:
    def __init__(self, application):
        self.app = application

    def record(self, event):  # expect: JC501
        requests.post("https://metrics.example/events", json=event)

    def run(self):
        with self.app.connection() as connection:
            receiver = self.app.events.Receiver(connection, handlers={"*": self.record})
            receiver.capture(limit=None, timeout=None, wakeup=True)


def render(event):
    return str(event)


def monitor():
    with app.connection() as connection:
        app.events.Receiver(connection, handlers={"task-failed": on_failed}).capture(limit=None)


def show(table):
    table.render(handlers={"*": render})
