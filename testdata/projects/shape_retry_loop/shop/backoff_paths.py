"""A retry loop waits after a failure only where each handler that goes round waits, or the loop
waits whatever happened (before or after the `try`, in its `finally`)."""
import time

import requests
from celery import shared_task


@shared_task
def waits_on_one_failure(url):
    """Only a lock timeout waits; any other failure goes round at once."""
    for attempt in range(5):  # expect: JC203
        try:
            requests.post(url, timeout=5)  # expect: JC201
            break
        except requests.Timeout:
            time.sleep(10)
        except Exception:
            continue


@shared_task
def waits_on_every_failure(url):
    for attempt in range(5):
        try:
            requests.post(url, timeout=5)  # expect: JC201
            break
        except requests.Timeout:
            time.sleep(10)
        except Exception:
            time.sleep(2 ** attempt)


@shared_task
def waits_after_the_try(url):
    for attempt in range(5):
        try:
            requests.post(url, timeout=5)  # expect: JC201
            break
        except requests.Timeout:
            pass
        except Exception:
            continue
        finally:
            time.sleep(2 ** attempt)
