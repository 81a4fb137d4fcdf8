"""Retry decorators of the application's own built on tenacity and backoff."""
import backoff
import requests
from tenacity import retry, stop_after_attempt, wait_exponential


def with_retries(attempts=5):
    return retry(stop=stop_after_attempt(attempts), wait=wait_exponential(multiplier=2))


def network_retry(func):
    return backoff.on_exception(backoff.expo, requests.ConnectionError, max_tries=4)(func)
