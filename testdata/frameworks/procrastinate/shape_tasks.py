# jobcheck-test: select=JC201,JC501
# Procrastinate, as its documentation writes it: `@app.task(...)` on an `App`, retried by
# `retry=5`, `retry=True` or a `RetryStrategy`; `@app.periodic(cron=...)` stacked on a task; a
# `Blueprint` registering tasks for an app. Without `retry=` a failed job is not run again.
import procrastinate
import requests
from django.core.mail import send_mail

app = procrastinate.App(connector=procrastinate.PsycopgConnector())
blueprint = procrastinate.Blueprint()


@app.task(queue="partners", retry=5)
def push_order(order_id):  # expect: JC501
    requests.post("https://partner.example/orders", json={"id": order_id})  # expect: JC201


@app.task(retry=procrastinate.RetryStrategy(max_attempts=10, wait=5, retry_exceptions={ConnectionError}))
def send_receipt(address):  # expect: JC501
    send_mail("Receipt", "Thanks", "shop@example.com", [address])  # expect: JC201


@app.task(retry=True, pass_context=True)
def sync_account(context, account_id):  # expect: JC501
    requests.post("https://crm.example/accounts", json={"id": account_id})  # expect: JC201


@app.task(queue="mail")
def send_welcome(address):  # expect: JC501
    send_mail("Welcome", "Hi", "team@example.com", [address])  # no retry


@app.periodic(cron="*/10 * * * *")
@app.task(queueing_lock="tick")
def tick(timestamp: int):  # expect: JC501
    requests.post("https://monitor.example/tick", json={"at": timestamp})  # no retry


@blueprint.task(retry=3)
def export_ledger(day):  # expect: JC501
    requests.post("https://ledger.example/exports", json={"day": day})  # expect: JC201


app.add_tasks_from(blueprint, namespace="ledger")


def checkout(order_id, address):
    push_order.defer(order_id=order_id)
    send_receipt.configure(lock="receipt").defer(address=address)
