# Temporal: activities retry without limit by default; the policy is chosen where a workflow
# schedules the activity. Workflows are entry points too, but their effects belong in activities.
# jobcheck-test: select=JC201,JC501
from datetime import timedelta

import requests
from temporalio import activity, workflow
from temporalio.common import RetryPolicy

with workflow.unsafe.imports_passed_through():
    import smtplib

ONCE = RetryPolicy(maximum_attempts=1)


@activity.defn
async def send_welcome_email(address: str) -> None:  # expect: JC501
    # scheduled below with the default policy: retried without limit
    with smtplib.SMTP("mail.example") as smtp:
        smtp.sendmail("hello@example", [address], "welcome")  # expect: JC201


@activity.defn
async def create_crm_contact(address: str) -> None:  # expect: JC501
    requests.post("https://crm.example/contacts", json={"email": address})  # expect: JC201


@activity.defn(name="charge-card")
async def charge_card(order_id: str) -> None:  # expect: JC501
    # scheduled only with maximum_attempts=1: never retried
    requests.post("https://payments.example/charges", json={"order": order_id})


@activity.defn
async def reserve_stock(order_id: str) -> None:  # expect: JC501
    requests.post(
        "https://stock.example/reservations",
        json={"order": order_id},
        headers={"Idempotency-Key": f"reserve-{order_id}"},
    )


@activity.defn
def lookup_customer(address: str) -> dict:  # expect: JC501
    return requests.get("https://crm.example/contacts", params={"email": address}).json()


def render_email(address: str) -> str:
    # a helper: not an activity
    return f"welcome {address}"


@workflow.defn
class SignupWorkflow:  # expect: JC501
    @workflow.run
    async def run(self, address: str) -> None:
        await workflow.execute_activity(send_welcome_email, address, start_to_close_timeout=timedelta(seconds=30))
        await workflow.execute_activity(
            create_crm_contact,
            address,
            start_to_close_timeout=timedelta(seconds=30),
            retry_policy=RetryPolicy(maximum_attempts=5, initial_interval=timedelta(seconds=2)),
        )

    @workflow.signal
    def cancel(self) -> None:
        pass


@workflow.defn(name="checkout")
class CheckoutWorkflow:
    """Charge an order and reserve its stock.

    Reliability:
        Runs twice: the workflow id is the order id; a second start is rejected.
        Overlaps: no; one workflow per order id.
        Dies mid-run: Temporal replays the history and resumes.
        Retries: charge-card runs once; reserve_stock retries with an idempotency key.
        Idempotent: yes.
    """

    @workflow.run
    async def run(self, order_id: str) -> None:
        await workflow.execute_activity("charge-card", order_id, start_to_close_timeout=timedelta(minutes=1),
                                        retry_policy=ONCE)
        await workflow.start_activity(reserve_stock, order_id, start_to_close_timeout=timedelta(minutes=1))
        await workflow.execute_local_activity(lookup_customer, order_id, start_to_close_timeout=timedelta(seconds=5))
