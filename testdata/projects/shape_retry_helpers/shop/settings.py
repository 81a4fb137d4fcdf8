"""Retry settings kept in one place and built by helpers."""
import requests
from rq import Retry

RETRY_OPTIONS = {
    "autoretry_for": (requests.RequestException,),
    "max_retries": 5,
    "retry_backoff": True,
}
IMPATIENT = {"autoretry_for": (ConnectionError,), "max_retries": 10, "default_retry_delay": 0}
QUEUE_OPTIONS = {"queue": "low", "acks_late": True}  # no retry at all
# Options built from others by splats, read through them: the retry settings are in the inner dict.
FOREVER = {"autoretry_for": (ConnectionError,), "max_retries": None, "retry_backoff": True}
FOREVER_BOUND = {**FOREVER, **{"bind": True}}
FOREVER_LOW = {**FOREVER_BOUND, "queue": "low"}


def task_options(**extra):
    params = dict(RETRY_OPTIONS)
    params.update(extra)
    return params


def get_retry(attempts=3):
    return Retry(max=attempts, interval=[10, 60, 300])


def no_retry():
    return None
