# Dagster: a RetryPolicy with no delay re-runs the step at once; `raise RetryRequested` without
# `seconds_to_wait` too.
import requests
from dagster import Backoff, Jitter, RetryPolicy, RetryRequested, asset, job, op

DELAY = 30


@op(retry_policy=RetryPolicy(max_retries=5))  # expect: JC203
def load_orders():
    return requests.get("https://erp.example.com/orders", timeout=10).json()


@asset(retry_policy=RetryPolicy(max_retries=3, delay=0.5))  # expect: JC203
def customers():
    return requests.get("https://crm.example.com/customers", timeout=10).json()


@op
def poll_export():
    if not requests.get("https://erp.example.com/export", timeout=10).ok:
        raise RetryRequested(max_retries=10)  # expect: JC203


# Clean: exponential backoff, a real delay, a delay from a name (by keyword and by position),
# a delay at the raise, a single retry.

@op(retry_policy=RetryPolicy(max_retries=5, delay=2, backoff=Backoff.EXPONENTIAL, jitter=Jitter.PLUS_MINUS))
def exponential():
    return requests.get("https://erp.example.com/a", timeout=10).json()


@op(retry_policy=RetryPolicy(max_retries=5, delay=30))
def constant_delay():
    return requests.get("https://erp.example.com/b", timeout=10).json()


@op(retry_policy=RetryPolicy(max_retries=5, delay=DELAY))
def delay_from_a_name():
    return requests.get("https://erp.example.com/c", timeout=10).json()


@op(retry_policy=RetryPolicy(5, DELAY))
def delay_by_position():
    return requests.get("https://erp.example.com/d", timeout=10).json()


@op
def poll_politely():
    if not requests.get("https://erp.example.com/export", timeout=10).ok:
        raise RetryRequested(max_retries=10, seconds_to_wait=30)


@op(retry_policy=RetryPolicy())
def one_retry():
    return requests.get("https://erp.example.com/e", timeout=10).json()


@job
def nightly():
    load_orders()
    poll_export()
    exponential()
    constant_delay()
    delay_from_a_name()
    delay_by_position()
    poll_politely()
    one_retry()
