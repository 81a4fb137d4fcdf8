# jobcheck-test: select=JC201
# A client that keeps the error it will raise in a local (`error = ApiError(...)`, then `raise
# error from exc`) raises an ApiError: a task retried on ApiError repeats the POST made before it.
import requests
from celery import shared_task


class ApiError(Exception):
    pass


def post(url, payload):
    try:
        response = requests.post(url, json=payload, timeout=10)
    except requests.RequestException as exc:
        error = ApiError(str(exc))
        raise error from exc
    return response.json()


@shared_task(bind=True, max_retries=3, default_retry_delay=60)
def open_account(self, customer):
    try:
        post("https://bank.example/accounts", {"customer": customer})  # expect: JC201
    except ApiError as exc:
        raise self.retry(exc=exc)
