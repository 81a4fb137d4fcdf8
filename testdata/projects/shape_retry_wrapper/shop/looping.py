# jobcheck-test: select=JC201,JC202,JC203,JC501
"""A retry decorator whose wrapper calls the function in a retry loop: the function it decorates
is retried, as the loop says (how often, on what, waiting or not)."""
import logging
import time

import requests
from celery import shared_task

logger = logging.getLogger(__name__)


def retry(delays=(1, 3, 5), exception=Exception):
    def decorator(function):
        def wrapper(*args, **kwargs):
            for delay in delays + (None,):
                try:
                    return function(*args, **kwargs)
                except exception:
                    if delay is None:
                        raise
                    logger.info("retrying in %s s", delay)
                    time.sleep(delay)

        return wrapper

    return decorator


def retry_unless_invalid(delays=(1, 2, 4)):
    """Re-raises what is invalid at once: what it retries is the rest."""
    def decorator(function):
        def wrapper(*args, **kwargs):
            for delay in delays:
                try:
                    return function(*args, **kwargs)
                except ValueError:
                    raise
                except Exception:
                    time.sleep(delay)
            return None

        return wrapper

    return decorator


def hammer(function):
    """Tries five times, straight after each other."""
    def wrapper(*args, **kwargs):
        for _ in range(5):
            try:
                return function(*args, **kwargs)
            except ConnectionError:
                pass
        return None

    return wrapper


def until_timeout(timeout=300, interval=10):
    """Gives up once `timeout` seconds have passed, checked before each attempt."""
    def decorator(function):
        def wrapper(*args, **kwargs):
            start = time.time()
            while True:
                if time.time() - start >= timeout:
                    raise TimeoutError(function.__name__)
                try:
                    return function(*args, **kwargs)
                except ConnectionError:
                    time.sleep(interval)

        return wrapper

    return decorator


def checked_forever(function):
    """Checks its input before each attempt: that ends no run of failures."""
    def wrapper(*args, **kwargs):
        while True:
            if not args:
                raise ValueError("nothing to send")
            try:
                return function(*args, **kwargs)
            except ConnectionError:
                time.sleep(10)

    return wrapper


def forever(function):
    """Retries until it works, whatever fails."""
    def wrapper(*args, **kwargs):
        while True:
            try:
                return function(*args, **kwargs)
            except Exception:
                time.sleep(10)

    return wrapper


@until_timeout()
def fetch_modules(name):
    return requests.get(f"https://pdc.example/modules/{name}").json()


@checked_forever  # expect: JC202
def fetch_tags(name):
    return requests.get(f"https://pdc.example/tags/{name}").json()


@forever  # expect: JC202
def fetch_builds(name):
    return requests.get(f"https://pdc.example/builds/{name}").json()


@retry()
def send_report(report):
    requests.post("https://reports.example/", json=report)  # expect: JC201


@retry_unless_invalid()
def post_entry(entry):
    requests.post("https://ledger.example/", json=entry)  # expect: JC201


@hammer  # expect: JC203
def put_chunk(url, chunk):
    requests.put(url, data=chunk)


@shared_task
def nightly(report):  # expect: JC501
    send_report(report)
    post_entry(report)
    put_chunk("https://files.example/chunk/1", b"...")
    fetch_modules("core")
    fetch_builds("core")
    fetch_tags("core")
