# jobcheck-test: select=JC201,JC501
import dramatiq
import requests
from celery import Task, shared_task

from sync.models import Account


@shared_task
def push_account(account_id):  # expect: JC501
    requests.post("https://crm.example/accounts", json={"id": account_id})


@shared_task(autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)
def push_all():  # expect: JC501
    for account_id in Account.objects.values_list("id", flat=True):
        push_account(account_id)  # expect: JC201


@shared_task(autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)
def push_all_later():  # expect: JC501
    # Each account is its own message; a retry of this task enqueues every one again.
    for account_id in Account.objects.values_list("id", flat=True):
        push_account.delay(account_id)  # expect: JC201


@shared_task(autoretry_for=(ConnectionError,), max_retries=5)
def push_inline(account_id):  # expect: JC501
    push_account.apply(args=(account_id,))  # expect: JC201 (`apply` runs the task here)


class PushContacts(Task):  # expect: JC501
    def run(self, account_id):
        requests.post("https://crm.example/contacts", json={"account": account_id})


@shared_task(autoretry_for=(ConnectionError,), max_retries=5)
def push_everything(account_id):  # expect: JC501
    PushContacts().run(account_id)  # expect: JC201


@shared_task
def fetch_account(account_id):  # expect: JC501
    return requests.get(f"https://crm.example/accounts/{account_id}").json()


@shared_task(autoretry_for=(ConnectionError,), max_retries=5)
def check_account(account_id):  # expect: JC501
    return fetch_account(account_id)["active"]  # a read: safe to repeat


@dramatiq.actor(max_retries=0)
def send_invoice(invoice_id):  # expect: JC501
    requests.post("https://mail.example/invoices", json={"id": invoice_id})


@dramatiq.actor(max_retries=5)
def close_month(invoice_ids):  # expect: JC501
    for invoice_id in invoice_ids:
        send_invoice(invoice_id)  # expect: JC201
