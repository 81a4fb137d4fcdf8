# jobcheck-test: select=JC201,JC501
import requests

from billing.tasking import app_task, background, shared, timed


@app_task(name="billing.sync", max_retries=5, default_retry_delay=60, autoretry_for=(IOError,))
def sync(account_id):  # expect: JC501
    requests.post("https://ledger.example/sync", json={"account": account_id})  # expect: JC201


@app_task(name="billing.nightly")
def nightly_close(day):  # expect: JC501
    requests.post("https://ledger.example/close", json={"day": day})  # not retried


@shared(autoretry_for=(requests.RequestException,), max_retries=3, retry_backoff=True)
def push_invoice(invoice_id):  # expect: JC501
    requests.post("https://erp.example/invoices", json={"id": invoice_id})  # expect: JC201


@timed("billing.preview", unit="ms")
def preview(account_id):
    requests.post("https://ledger.example/preview", json={"account": account_id})


@background
def warm_cache(account_id):  # expect: JC501
    requests.get(f"https://ledger.example/accounts/{account_id}")
