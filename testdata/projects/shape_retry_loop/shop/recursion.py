# jobcheck-test: select=JC201,JC202,JC203
"""Retries by recursion: a function calling itself again from an `except` of its own, on the same
work. A call on other data is other work (quiet)."""
import smtplib
import time

import requests
from celery import shared_task


def post_again(url, body, retries=5):
    """Counted down from 5, with no delay: the POST is sent again at once."""
    try:
        return requests.post(url, json=body, timeout=5)  # expect: JC201
    except requests.ConnectionError:
        if retries > 0:
            return post_again(url, body, retries=retries - 1)  # expect: JC203
        raise


def post_after_a_pause(url, body, retries=3):
    """Waits 30 s before calling itself again: a backoff (JC203 quiet), the POST still repeated."""
    try:
        return requests.post(url, json=body, timeout=5)  # expect: JC201
    except requests.ConnectionError:
        if not retries:
            raise
        time.sleep(30)
        return post_after_a_pause(url, body, retries - 1)


def post_or_give_up(url, body, retried=False):
    """Its handler gives up with nothing rather than raising: the POST is still sent again once."""
    try:
        return requests.post(url, json=body, timeout=5)  # expect: JC201
    except requests.ConnectionError:
        if not retried:
            return post_or_give_up(url, body, retried=True)
        return None


class Mailer:
    def __init__(self, host):
        self.host = host
        self.server = smtplib.SMTP(host)

    def send(self, message, _retrying=False):
        """Reconnects and sends once more: a single immediate retry (JC203 quiet), the email repeated."""
        try:
            return self.server.send_message(message)  # expect: JC201
        except smtplib.SMTPServerDisconnected:
            if _retrying:
                raise
            self.server = smtplib.SMTP(self.host)
            return self.send(message, _retrying=True)


def post_halves(url, batch):
    """A refused batch is split and each half posted: other data each time, no retry."""
    try:
        requests.post(url, json=batch, timeout=5)
    except requests.HTTPError:
        middle = len(batch) // 2
        post_halves(url, batch[:middle])
        post_halves(url, batch[middle:])


def walk(node, url):
    """A tree walker calling itself on a child from a handler: no retry."""
    try:
        requests.post(url, json=node.payload, timeout=5)
    except requests.ConnectionError:
        for child in node.children:
            walk(child, url)


@shared_task
def deliver(url, body, message, node):
    post_again(url, body)
    post_or_give_up(url, body)
    post_after_a_pause(url, body)
    Mailer("mail.example.com").send(message)
    post_halves(url, body)
    walk(node, url)


class Renderer:
    def __init__(self, template):
        self.template = template

    def render(self):
        """Falls back to another template after a failure: other work, no retry."""
        try:
            return requests.post("https://render.example", json={"t": self.template}, timeout=5)
        except requests.ConnectionError:
            self.template = "plain"
            return self.render()


def sync_account(url, account, retries=2):
    """Only what the `try` does runs again: the notice sent on a lost login (another handler) is
    not repeated by the retry on a timeout."""
    try:
        return requests.get(url, params={"account": account}, timeout=5)
    except PermissionError:
        requests.post(url + "/notice", json={"account": account}, timeout=5)
    except requests.Timeout:
        if retries:
            time.sleep(10)
            return sync_account(url, account, retries - 1)
        raise


@shared_task
def render_and_sync(url, account):
    Renderer("fancy").render()
    sync_account(url, account)


class Message:
    def __init__(self, raw):
        self.raw = raw

    def flatten(self):
        """Rebuilds a message that does not encode, then flattens that: a repair, not a retry."""
        try:
            return requests.post("https://archive.example", data=self.raw.encode("ascii"), timeout=5)
        except (TypeError, UnicodeEncodeError):
            self.raw = self.raw.encode("ascii", errors="replace").decode("ascii")
            return self.flatten()


@shared_task
def archive(raw):
    Message(raw).flatten()


class Client:
    """Sent again after a 401, with a new token: the server refused the first one, which did
    nothing (quiet). Sent again after a 502, whose request may have landed: repeated."""

    def __init__(self, base):
        self.base = base
        self.session = requests.Session()

    def authenticate(self):
        self.session.headers["Authorization"] = "Bearer renewed"

    def create(self, path, body, retry_auth=True):
        try:
            response = self.session.post(f"{self.base}/{path}", json=body, timeout=5)
            response.raise_for_status()
            return response.json()
        except requests.HTTPError as e:
            if e.response.status_code == 401 and retry_auth:
                self.authenticate()
                return self.create(path, body, retry_auth=False)
            raise

    def submit(self, path, body, retried=False):
        try:
            response = self.session.post(f"{self.base}/{path}", json=body, timeout=5)  # expect: JC201
            response.raise_for_status()
            return response.json()
        except requests.HTTPError as e:
            if e.response.status_code == 502 and not retried:
                return self.submit(path, body, retried=True)
            raise


class Feed:
    def push(self, session: requests.Session, entry, retried=False):
        """Its session parameter is written with its type, and passed on as itself: the same work
        again, the POST repeated."""
        try:
            return session.post("https://feed.example/entries", json=entry, timeout=5)  # expect: JC201
        except requests.ConnectionError:
            if retried:
                raise
            return self.push(session, entry, retried=True)


@shared_task
def publish(entry):
    Feed().push(requests.Session(), entry)
