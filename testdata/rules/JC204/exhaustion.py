# jobcheck-test: select=JC204,JC205
# Retries that run out, caught and silenced; and the ways of seeing them end.
import logging

import requests
from celery import shared_task
from celery.exceptions import MaxRetriesExceededError
from tenacity import RetryError, retry, stop_after_attempt

logger = logging.getLogger(__name__)


@shared_task(bind=True, max_retries=5)
def silenced(self, invoice_id):
    try:
        push(invoice_id)
    except requests.RequestException as exc:
        try:
            self.retry(exc=exc, countdown=60)
        except MaxRetriesExceededError:  # expect: JC204
            pass


@shared_task(bind=True, max_retries=5)
def silenced_as_any_exception(self, invoice_id):
    try:
        self.retry()
    except Exception:  # expect: JC204
        logger.info("gave up on %s", invoice_id)


@shared_task(bind=True, max_retries=5)
def reported(self, invoice_id):
    try:
        self.retry()
    except MaxRetriesExceededError:
        logger.error("invoice %s not pushed after 5 retries", invoice_id)


@shared_task(bind=True, max_retries=5)
def raised_again(self, invoice_id):
    try:
        self.retry()
    except MaxRetriesExceededError:
        record_dead_letter(invoice_id)
        raise


@shared_task(bind=True, max_retries=5)
def reported_once_the_try_is_over(self, invoice_id):
    try:
        self.retry()
    except MaxRetriesExceededError:
        pass  # and go on to log the error
    logger.exception("invoice %s not pushed", invoice_id)


@shared_task(bind=True, max_retries=5)
def reported_only_in_another_branch(self, invoice_id, quiet):
    if quiet:
        try:
            self.retry()
        except MaxRetriesExceededError:  # expect: JC204
            pass
    else:
        logger.error("invoice %s not pushed", invoice_id)


@retry(stop=stop_after_attempt(3))
def fetch_rates():
    return requests.get("https://rates.example.com", timeout=5).json()


@shared_task
def tenacity_silenced():
    try:
        return fetch_rates()
    except RetryError:  # expect: JC204
        return None


@shared_task
def tenacity_handed_to_a_helper():
    try:
        fetch_rates()
    except RetryError as exc:
        record_dead_letter(str(exc))


@shared_task
def catches_something_else(invoice_id):
    try:
        push(invoice_id)
    except requests.Timeout:
        pass


def push(invoice_id):
    requests.post("https://erp.example.com/invoices", json={"id": invoice_id}, timeout=10)


def record_dead_letter(what):
    pass
