# jobcheck-test: select=JC201
# A delivery whose `except` stores when to try again (`event.next_retry_at = ...`), for a loop
# that takes what is due, is retried through the application's own store: a POST in it with no
# key is sent again. The same delivery carrying the event's id as its key is quiet, and so is
# one whose handler only counts the failure (`event.failures += 1`): nothing tries it again.
import time

import requests


class Sender:
    def __init__(self, storage, delays=(60, 300, 1800)):
        self.storage = storage
        self.delays = delays

    def deliver(self, event):
        try:
            requests.post(event.url, json=event.payload, timeout=10)  # expect: JC201
            event.status = "success"
        except requests.RequestException:
            event.attempts += 1
            if event.attempts <= len(self.delays):
                event.status = "failed"
                event.next_retry_at = time.time() + self.delays[event.attempts - 1]
            else:
                event.status = "dead"
        self.storage.update(event)

    def deliver_with_key(self, event):
        try:
            requests.post(event.url, json=event.payload, headers={"Idempotency-Key": event.id}, timeout=10)
        except requests.RequestException:
            self.storage.update(event.id, status="failed", retry_at=time.time() + 60)

    def deliver_once(self, event):
        try:
            requests.post(event.url, json=event.payload, timeout=10)
        except requests.RequestException:
            event.failures += 1
            event.status = "dead"
        self.storage.update(event)

    def retry_worker(self):
        while True:
            for event in self.storage.due(limit=10):
                self.deliver(event)
                self.deliver_with_key(event)
                self.deliver_once(event)
            time.sleep(5)
