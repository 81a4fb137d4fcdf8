import threading

import requests

from reports.models import Subscriber


class Notifier:
    def __init__(self):
        self.stopping = threading.Event()

    def run(self):  # expect: JC501
        while not self.stopping.is_set():
            for subscriber in Subscriber.objects.filter(notified=False):
                requests.post("https://notify.example/send", json={"to": subscriber.email})
            self.stopping.wait(30)
