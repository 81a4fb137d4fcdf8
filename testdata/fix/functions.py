# Jobs without docstrings, and jobs whose docstrings take the section in their own style.
import requests
from celery import Celery, shared_task
from django.core.mail import send_mail

app = Celery("fix")


@shared_task(autoretry_for=(Exception,), max_retries=3, retry_backoff=True)
def no_docstring(order_id):
    # The comment before the first statement stays where it is.
    requests.post("https://partner.example/orders", json={"order": order_id})  # keep this comment


@app.task
async def async_job(address):
    send_mail("hi", "body", "from@example.com", [address])


@app.task
def one_line(address): send_mail("hi", "body", "from@example.com", [address])  # trailing comment


@shared_task
def summary_only(order_id):
    """Post one order."""
    return order_id


@shared_task
def closing_on_own_line(order_id):
    """Post one order.

    The partner dedupes nothing.
    """
    return order_id


@shared_task
def closing_after_text(order_id):
    '''Post one order.

    The partner dedupes nothing.'''
    return order_id


@shared_task
def single_quoted(order_id):
    'Post one order.'
    return order_id


@shared_task
def raw_docstring(pattern):
    r"""Match \d+ in the payload."""
    return pattern


@shared_task
def docstring_and_code_on_one_line(order_id): "Post one order."; return order_id


@shared_task
def flush_left(order_id):
    """Post one order.

Written flush left, and the section follows that style.
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
