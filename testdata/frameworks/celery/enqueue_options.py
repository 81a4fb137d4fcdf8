# jobcheck-test: select=JC201,JC501
# Celery settings that live away from the task: `apply_async(retry=True, retry_policy=...)` retries
# *publishing* the message, not the task, so it does not make a task retried; `send_task` names a
# task by string; `app.task(func)` registers without a decorator; a `Task` subclass retries by its
# class attributes. Signal receivers are not tasks.
import requests
from celery import Celery, Task
from celery.signals import task_failure
from django.core.mail import send_mail

app = Celery("shop")


@app.task
def send_receipt(address):  # expect: JC501
    send_mail("Receipt", "Thanks", "shop@example.com", [address])  # no task retries


def _push_stock(sku, count):  # expect: JC501
    requests.post("https://erp.example/stock", json={"sku": sku, "count": count})  # expect: JC201


push_stock = app.task(_push_stock, autoretry_for=(Exception,), max_retries=5, retry_backoff=True)


class SyncCustomer(Task):  # expect: JC501
    autoretry_for = (requests.RequestException,)
    max_retries = 4
    retry_backoff = True

    def run(self, customer_id):
        requests.post("https://crm.example/customers", json={"id": customer_id})  # expect: JC201


@app.task(name="shop.audit")
def audit(event):  # expect: JC501
    print(event)


@task_failure.connect
def on_task_failure(sender=None, task_id=None, exception=None, **kwargs):  # expect: JC501
    send_mail("Task failed", str(exception), "ops@example.com", ["ops@example.com"])


def checkout(address, sku):
    send_receipt.apply_async(
        (address,),
        retry=True,
        retry_policy={"max_retries": 3, "interval_start": 0, "interval_step": 0.2},
    )
    push_stock.delay(sku, 1)
    app.send_task("shop.audit", args=("checkout",))
