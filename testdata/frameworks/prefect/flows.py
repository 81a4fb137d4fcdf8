# Prefect flows and tasks: no retries unless `retries=` says so (tasks do not inherit their
# flow's retries); `with_options(retries=...)` retries the same function.
# jobcheck-test: select=JC201,JC501
import httpx
import requests
from prefect import flow, task
from prefect.tasks import exponential_backoff


@task(retries=3, retry_delay_seconds=exponential_backoff(backoff_factor=10))
def post_invoice(invoice_id: int) -> None:  # expect: JC501
    requests.post("https://billing.example/invoices", json={"id": invoice_id})  # expect: JC201


@task(retries=3, retry_delay_seconds=[1, 10, 100])
def post_invoice_with_key(invoice_id: int) -> None:  # expect: JC501
    requests.post(
        "https://billing.example/invoices",
        json={"id": invoice_id},
        headers={"Idempotency-Key": f"invoice-{invoice_id}"},
    )


@task
def fetch_invoices() -> list[int]:  # expect: JC501
    return requests.get("https://billing.example/invoices").json()


@task
def notify_accounting(count: int) -> None:  # expect: JC501
    # no retries: the default is 0
    httpx.post("https://accounting.example/notify", json={"count": count})


@task
def archive(invoice_id: int) -> None:  # expect: JC501
    httpx.post("https://archive.example/invoices", json={"id": invoice_id})  # expect: JC201


def summarize(ids):
    # a plain helper: not a task
    return len(ids)


@flow(retries=2, retry_delay_seconds=30)
def billing_run() -> None:  # expect: JC501
    # a flow retry runs the flow function again, and with it every task it calls
    ids = fetch_invoices()
    for invoice_id in ids:
        post_invoice(invoice_id)  # expect: JC201
        post_invoice_with_key(invoice_id)
        archive.with_options(retries=5)(invoice_id)
    notify_accounting(summarize(ids))  # expect: JC201


@flow(log_prints=True)
def nightly() -> None:  # expect: JC501
    # the flow itself makes the call: a flow with retries repeats it
    billing_run()
    requests.post("https://status.example/nightly-done")


@flow(retries=1)
def report() -> None:
    """Post the daily report.

    Reliability:
        Runs twice: posts twice; the receiver dedupes on the report date.
        Overlaps: no; one deployment, one schedule.
        Dies mid-run: the report is re-posted on the next run.
        Retries: once, the whole flow.
        Idempotent: at the receiver.
    """
    requests.post("https://reports.example/daily")  # expect: JC201


if __name__ == "__main__":
    nightly.serve(name="nightly", cron="0 2 * * *")
