"""A helper with a retry loop, reached from a job in another module."""
import time

import requests


def post_with_retries(url, body):
    for delay in (0, 0, 0):  # expect: JC203
        try:
            response = requests.post(url, json=body, timeout=10)  # expect: JC201
            if response.ok:
                return response
        except requests.RequestException:
            time.sleep(delay)
    return None


def _backoff(attempt):
    time.sleep(min(2 ** attempt, 30))


def post_backing_off(url, body):
    """Waits in a helper named for it between attempts: how long is not read, no JC203."""
    for attempt in range(3):
        try:
            return requests.post(url, json=body, timeout=10)  # expect: JC201
        except requests.RequestException:
            _backoff(attempt)
    return None


def post_counting(url, body):
    """Calls a helper between attempts that does not wait: a retry at once."""
    for attempt in range(3):  # expect: JC203
        try:
            return requests.post(url, json=body, timeout=10)  # expect: JC201
        except requests.RequestException:
            _count_failure(attempt)
    return None


def _count_failure(attempt):
    return attempt


class Webhook:
    """Two shapes from in-house senders: a flag the loop's test reads, and a helper that says
    whether it worked."""

    def __init__(self, url, retries=3, delay=0):
        self.url, self.retries, self.delay = url, retries, delay

    def send(self, payload):
        success = False
        attempts = 0
        while not success and attempts <= self.retries:  # bounded by its test
            if attempts:
                time.sleep(self.delay)
            attempts += 1
            try:
                response = requests.post(self.url, json=payload, timeout=10)  # expect: JC201
                response.raise_for_status()
                success = True
            except requests.RequestException:
                pass

    def _posted(self, payload):
        try:
            return bool(requests.post(self.url, json=payload, timeout=10))
        except requests.RequestException:
            return False

    def deliver(self, payload):
        for attempt in range(3):  # expect: JC203
            if self._posted(payload):  # expect: JC201
                return

    def deliver_pages(self, pages):
        """Work done until none is left (leaves when the call returns false): no retry."""
        while True:
            if not self._posted(pages.pop()):
                break

    def deliver_each(self, payloads):
        """A call given the loop's variable: one per item, no retry."""
        for i in range(len(payloads)):
            if self._posted(payloads[i]):
                return
