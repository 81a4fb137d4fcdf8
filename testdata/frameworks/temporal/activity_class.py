# Temporal activities as methods of a class holding a client; scheduled by method reference.
# jobcheck-test: select=JC201,JC501
from datetime import timedelta

import httpx
from temporalio import activity, workflow
from temporalio.common import RetryPolicy


class BillingActivities:
    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    @activity.defn
    async def refund(self, payment_id: str) -> None:  # expect: JC501
        # never scheduled in this code base: the default policy, unlimited
        await httpx.AsyncClient().post("https://payments.example/refunds", json={"payment": payment_id})  # expect: JC201

    @activity.defn
    async def void(self, payment_id: str) -> None:  # expect: JC501
        await httpx.AsyncClient().post("https://payments.example/voids", json={"payment": payment_id})


@workflow.defn
class VoidWorkflow:  # expect: JC501
    @workflow.run
    async def run(self, payment_id: str) -> None:
        await workflow.execute_activity_method(
            BillingActivities.void,
            payment_id,
            start_to_close_timeout=timedelta(seconds=10),
            retry_policy=RetryPolicy(maximum_attempts=1),
        )
