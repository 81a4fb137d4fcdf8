# jobcheck-test: select=JC201
# A helper that calls a method of its parameter (`session.post(...)`) makes the effect of the type
# every caller passes: an instance of one type (`self.session = requests.Session()`). Callers that
# pass different types, or leave the parameter to its default, say nothing of it: quiet.
import time

import requests
from celery import shared_task


def post_with_retries(session, url, body):
    for _ in range(5):
        try:
            return session.post(url, json=body, timeout=10)  # expect: JC201
        except requests.ConnectionError:
            time.sleep(1)
    return None


class Recorder:
    def post(self, url, json=None, timeout=None):
        return url, json


def send_with_retries(client, url, body):
    for _ in range(5):
        try:
            return client.post(url, json=body, timeout=10)
        except requests.ConnectionError:
            time.sleep(1)
    return None


def ping_with_retries(url, session=None):
    for _ in range(5):
        try:
            return session.post(url, timeout=10)
        except requests.ConnectionError:
            time.sleep(1)
    return None


class Engine:
    def __init__(self):
        self.session = requests.Session()

    def execute(self, url, body):
        return post_with_retries(self.session, url, body)

    def notify(self, url, body):
        return send_with_retries(self.session, url, body)


@shared_task
def execute(url, body):
    Engine().execute(url, body)


@shared_task
def notify(url, body):
    Engine().notify(url, body)
    send_with_retries(Recorder(), url, body)


@shared_task
def ping(url):
    ping_with_retries(url)
