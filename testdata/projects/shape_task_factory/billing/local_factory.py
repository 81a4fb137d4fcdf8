"""The factory defined next to its tasks, exactly as the issue writes it."""
from functools import wraps

import requests

from billing import metrics
from billing.celery_app import app


def app_task(name, **options):
    def wrap(func):
        @wraps(func)
        def run(*args, **kwargs):
            with metrics.timer(name):
                return func(*args, **kwargs)

        return app.task(name=name, **options)(run)

    return wrap


@app_task(name="billing.refund", autoretry_for=(ConnectionError,), max_retries=3)
def refund(payment_id):  # expect: JC501
    requests.post("https://psp.example/refunds", json={"payment": payment_id})  # expect: JC201
