# jobcheck-test: select=JC201
# A task retried on an exception of the application's own repeats the effects before the places
# that raise it, also in the helpers it calls: an API client raising `ServerError` on the status
# of its POST (or a subclass of it, `RateLimited`) makes the retry repeat the POST. A helper that
# raises it only while checking its arguments, before it posts, repeats nothing.
import requests
from celery import shared_task

from certs.api import CertificatesClient, InvalidPayload, LockTimeout, ServerError, place, place_then_confirm


@shared_task(bind=True, autoretry_for=(ServerError,), max_retries=5, retry_backoff=True)
def issue_certificate(self, email):
    CertificatesClient("https://certs.example/api").issue(email)  # expect: JC201


@shared_task(bind=True, autoretry_for=(ServerError,), max_retries=5, retry_backoff=True)
def revoke_then_notify(self, uid, email):
    client = CertificatesClient("https://certs.example/api")
    requests.post("https://mail.example/send", json={"to": email}, timeout=10)  # expect: JC201
    client.revoke(uid)


@shared_task(bind=True, autoretry_for=(ServerError,), max_retries=5, retry_backoff=True)
def register_learner(self, payload):
    CertificatesClient("https://certs.example/api").register(payload)


@shared_task(bind=True, autoretry_for=(InvalidPayload,), max_retries=5, retry_backoff=True)
def issue_checked(self, email):
    CertificatesClient("https://certs.example/api").issue(email)


@shared_task(bind=True, max_retries=5)
def place_order(self, order_id):
    try:
        return place(order_id)
    except LockTimeout:
        self.retry(countdown=1)


@shared_task(bind=True, max_retries=5)
def place_and_confirm(self, order_id):
    try:
        return place_then_confirm(order_id)  # expect: JC201
    except LockTimeout:
        self.retry(countdown=1)
