# Jobs without docstrings, and jobs whose docstrings take the section in their own style.
import requests
from celery import Celery, shared_task
from django.core.mail import send_mail

app = Celery("fix")


@shared_task(autoretry_for=(Exception,), max_retries=3, retry_backoff=True)
def no_docstring(order_id):
    """
    Reliability:
        Runs twice: TODO - say what a second delivery of the same work does. Effects
            jobcheck found with no idempotency guard - HTTP write via requests.post.
        Overlaps: TODO - say whether two runs can overlap and what stops them. jobcheck
            saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Delivery - at-most-once.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            Retried as configured (autoretry_for=(Exception,), max_retries=3,
            retry_backoff=True) - at most 3 retries, exponential backoff.
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    """
    # The comment before the first statement stays where it is.
    requests.post("https://partner.example/orders", json={"order": order_id})  # keep this comment


@app.task
async def async_job(address):
    """
    Reliability:
        Runs twice: TODO - say what a second delivery of the same work does. Effects
            jobcheck found with no idempotency guard - email via mail.send_mail.
        Overlaps: TODO - say whether two runs can overlap and what stops them. jobcheck
            saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Delivery - at-most-once.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            jobcheck found nothing that retries it.
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    """
    send_mail("hi", "body", "from@example.com", [address])


@app.task
def one_line(address):  # trailing comment
    """
    Reliability:
        Runs twice: TODO - say what a second delivery of the same work does. Effects
            jobcheck found with no idempotency guard - email via mail.send_mail.
        Overlaps: TODO - say whether two runs can overlap and what stops them. jobcheck
            saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Delivery - at-most-once.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            jobcheck found nothing that retries it.
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    """
    send_mail("hi", "body", "from@example.com", [address])


@shared_task
def summary_only(order_id):
    """Post one order.

    Reliability:
        Runs twice: TODO - say what a second delivery of the same work does. jobcheck
            found no unguarded external effect.
        Overlaps: TODO - say whether two runs can overlap and what stops them. jobcheck
            saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Delivery - at-most-once.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            jobcheck found nothing that retries it.
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    """
    return order_id


@shared_task
def closing_on_own_line(order_id):
    """Post one order.

    The partner dedupes nothing.

    Reliability:
        Runs twice: TODO - say what a second delivery of the same work does. jobcheck
            found no unguarded external effect.
        Overlaps: TODO - say whether two runs can overlap and what stops them. jobcheck
            saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Delivery - at-most-once.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            jobcheck found nothing that retries it.
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    """
    return order_id


@shared_task
def closing_after_text(order_id):
    '''Post one order.

    The partner dedupes nothing.

    Reliability:
        Runs twice: TODO - say what a second delivery of the same work does. jobcheck
            found no unguarded external effect.
        Overlaps: TODO - say whether two runs can overlap and what stops them. jobcheck
            saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Delivery - at-most-once.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            jobcheck found nothing that retries it.
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    '''
    return order_id


@shared_task
def single_quoted(order_id):
    '''Post one order.

    Reliability:
        Runs twice: TODO - say what a second delivery of the same work does. jobcheck
            found no unguarded external effect.
        Overlaps: TODO - say whether two runs can overlap and what stops them. jobcheck
            saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Delivery - at-most-once.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            jobcheck found nothing that retries it.
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    '''
    return order_id


@shared_task
def raw_docstring(pattern):
    r"""Match \d+ in the payload.

    Reliability:
        Runs twice: TODO - say what a second delivery of the same work does. jobcheck
            found no unguarded external effect.
        Overlaps: TODO - say whether two runs can overlap and what stops them. jobcheck
            saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Delivery - at-most-once.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            jobcheck found nothing that retries it.
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    """
    return pattern


@shared_task
def docstring_and_code_on_one_line(order_id):
    """Post one order.

    Reliability:
        Runs twice: TODO - say what a second delivery of the same work does. jobcheck
            found no unguarded external effect.
        Overlaps: TODO - say whether two runs can overlap and what stops them. jobcheck
            saw no lock.
        Dies mid-run: TODO - say what a crash between the steps leaves behind and what
            resumes it. Delivery - at-most-once.
        Retries: TODO - say whether a retry is safe and where exhaustion ends up.
            jobcheck found nothing that retries it.
        Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
    """
    return order_id


@shared_task
def flush_left(order_id):
    """Post one order.

Written flush left, and the section follows that style.

Reliability:
    Runs twice: TODO - say what a second delivery of the same work does. jobcheck
        found no unguarded external effect.
    Overlaps: TODO - say whether two runs can overlap and what stops them. jobcheck
        saw no lock.
    Dies mid-run: TODO - say what a crash between the steps leaves behind and what
        resumes it. Delivery - at-most-once.
    Retries: TODO - say whether a retry is safe and where exhaustion ends up.
        jobcheck found nothing that retries it.
    Idempotent: TODO - say what makes a repeat harmless (a key, an outbox, a check).
"""
    return order_id


@shared_task
def concatenated(order_id):
    "Post one " "order."  # concatenated strings: left alone, reported as not fixed
    return order_id


@shared_task
def answered(order_id):
    """Post one order.

    Reliability:
        Runs twice: safe; the partner dedupes on the order id.
        Overlaps: safe.
        Dies mid-run: the retry resends the same request.
        Retries: none.
        Idempotent: yes.
    """
    return order_id
