# Temporal: an activity's default RetryPolicy has maximum_attempts=0, unlimited; the policy is
# chosen where the workflow schedules the activity.
# jobcheck-test: select=JC202
from datetime import timedelta

import requests
from temporalio import activity, workflow
from temporalio.common import RetryPolicy

ATTEMPTS = 5
FOREVER = RetryPolicy(maximum_attempts=0, backoff_coefficient=2.0)


@activity.defn
async def charge_card(order_id: str) -> None:
    requests.post("https://payments.example/charges", json={"order": order_id}, timeout=10)


@activity.defn
async def send_receipt(order_id: str) -> None:
    requests.post("https://mail.example/receipts", json={"order": order_id}, timeout=10)


@activity.defn
async def reserve_stock(order_id: str) -> None:
    requests.post("https://stock.example/reservations", json={"order": order_id}, timeout=10)


@activity.defn
async def notify_warehouse(order_id: str) -> None:
    requests.post("https://warehouse.example/orders", json={"order": order_id}, timeout=10)


@activity.defn
async def book_courier(order_id: str) -> None:
    requests.post("https://courier.example/bookings", json={"order": order_id}, timeout=10)


@activity.defn
async def update_crm(order_id: str) -> None:
    requests.post("https://crm.example/orders", json={"order": order_id}, timeout=10)


@workflow.defn
class CheckoutWorkflow:
    @workflow.run
    async def run(self, order_id: str) -> None:
        await workflow.execute_activity(charge_card, order_id, start_to_close_timeout=timedelta(seconds=30))  # expect: JC202
        await workflow.execute_activity(  # expect: JC202
            send_receipt,
            order_id,
            start_to_close_timeout=timedelta(seconds=30),
            retry_policy=FOREVER,
        )
        # Clean: a count, a count held in a name, and a deadline for all the attempts.
        await workflow.execute_activity(
            reserve_stock, order_id, start_to_close_timeout=timedelta(seconds=30),
            retry_policy=RetryPolicy(maximum_attempts=5),
        )
        await workflow.execute_activity(
            notify_warehouse, order_id, start_to_close_timeout=timedelta(seconds=30),
            retry_policy=RetryPolicy(maximum_attempts=ATTEMPTS),
        )
        await workflow.execute_activity(
            book_courier, order_id, start_to_close_timeout=timedelta(seconds=30),
            retry_policy=RetryPolicy(maximum_attempts=workflow.info().retry_policy.maximum_attempts),
        )
        await workflow.execute_activity(
            update_crm, order_id, start_to_close_timeout=timedelta(seconds=30),
            schedule_to_close_timeout=timedelta(hours=1),
        )
