# Temporal retries activities by default with exponential backoff from 1 s; a coefficient of 1
# makes the interval constant.
from datetime import timedelta

from temporalio import activity, workflow
from temporalio.common import RetryPolicy
import requests


@activity.defn
def charge(order_id: str) -> None:
    requests.post("https://pay.example.com/charge", json={"id": order_id}, timeout=10)


@activity.defn
def notify(order_id: str) -> None:
    requests.post("https://mail.example.com/send", json={"id": order_id}, timeout=10)


@activity.defn
def archive(order_id: str) -> None:
    requests.post("https://archive.example.com", json={"id": order_id}, timeout=10)


@workflow.defn
class Checkout:
    @workflow.run
    async def run(self, order_id: str) -> None:
        await workflow.execute_activity(  # expect: JC203
            charge, order_id, start_to_close_timeout=timedelta(seconds=30),
            retry_policy=RetryPolicy(initial_interval=timedelta(milliseconds=100), backoff_coefficient=1.0),
        )
        # Clean: Temporal's default policy, and a short start that still doubles.
        await workflow.execute_activity(notify, order_id, start_to_close_timeout=timedelta(seconds=30))
        await workflow.execute_activity(
            archive, order_id, start_to_close_timeout=timedelta(seconds=30),
            retry_policy=RetryPolicy(initial_interval=timedelta(milliseconds=100), maximum_attempts=5),
        )
