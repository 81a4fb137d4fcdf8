# `task` here is Prefect's, imported under another name: a Prefect task, not Airflow's; and
# `flow` is a local function that happens to share the name: not an entry point.
# jobcheck-test: select=JC201,JC501
import prefect
from prefect import task as prefect_task


def flow(fn):
    # an application's own decorator named `flow`
    return fn


@flow
def local_flow():
    return 1


@prefect_task(retries=2)
def charge(order_id: int) -> None:  # expect: JC501
    import stripe

    stripe.Charge.create(amount=100, currency="eur", idempotency_key=f"order-{order_id}")


@prefect.flow
def checkout(order_id: int) -> None:  # expect: JC501
    charge(order_id)
