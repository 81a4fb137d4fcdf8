# jobcheck-test: select=JC201
# A bound task hands itself to a helper that makes the effect and then asks for the retry: the
# retry repeats the helper's POST. A helper that asks for it before its effect repeats nothing.
import requests
from celery import shared_task


def _perform(self, pk):
    try:
        requests.post("https://pay.example.com/charge", json={"pk": pk})
    except requests.RequestException as exc:
        raise self.retry(exc=exc)


def _validate_then_charge(self, pk):
    if not pk:
        raise self.retry(countdown=5)
    requests.post("https://pay.example.com/charge", json={"pk": pk})


@shared_task(bind=True)
def charge(self, pk):
    _perform(self, pk)  # expect: JC201


@shared_task(bind=True)
def charge_checked(self, pk):
    _validate_then_charge(self, pk)
