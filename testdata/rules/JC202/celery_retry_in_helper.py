# A bound task handing itself to a helper that asks for the retry: the helper's `self.retry()`
# is the task's, so `max_retries=None` is no dead setting there.
# jobcheck-test: select=JC202
import requests
from celery import shared_task

MAX_TRIES = 3


class RateLimited(Exception):
    retry_after = 30


def _perform(self, user_pk, action):
    try:
        requests.post(f"https://chat.example/users/{user_pk}/{action}", timeout=10)
    except RateLimited as exc:
        raise self.retry(countdown=exc.retry_after) from exc


def _perform_counted(self, user_pk):
    try:
        requests.post(f"https://chat.example/users/{user_pk}/sync", timeout=10)
    except requests.RequestException as exc:
        raise self.retry(countdown=60, max_retries=MAX_TRIES) from exc


def _log_only(self, user_pk):
    requests.post(f"https://chat.example/users/{user_pk}/audit", timeout=10)


@shared_task(bind=True, max_retries=None)  # expect: JC202
def update_roles(self, user_pk):
    _perform(self, user_pk, "roles")


@shared_task(bind=True, max_retries=None)
def sync_user(self, user_pk):
    """The helper passes its own count with the request: bounded."""
    _perform_counted(self, user_pk)


@shared_task(bind=True, max_retries=None)
def audit_user(self, user_pk):
    """The helper it hands itself to never asks for a retry: the setting is dead, not unbounded."""
    _log_only(self, user_pk)


def _ping(self, n):
    """Helpers handing the task to each other: read two deep, no further."""
    requests.post("https://chat.example/ping", timeout=10)
    if n:
        _pong(self, n - 1)
    raise self.retry()


def _pong(self, n):
    requests.post("https://chat.example/pong", timeout=10)
    if n:
        _ping(self, n - 1)
    raise self.retry()


@shared_task(bind=True, max_retries=None)  # expect: JC202
def play(self, n):
    _ping(self, n)
