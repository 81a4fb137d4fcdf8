# jobcheck-test: select=JC201,JC501,JC502
# The backend that runs a task is `TASKS[alias]["BACKEND"]` (settings and tasks share this module
# only so that the file is checked alone). A worker backend such as django-tasks-db still does
# not retry a failed task: the policy is "no retries", and it names the backend. Something that
# does retry — tenacity around the function — is a retry, and then the unguarded effect is JC201.
import requests
from django.tasks import task
from tenacity import retry, stop_after_attempt

TASKS = {
    "default": {"BACKEND": "django_tasks_db.DatabaseBackend"},
    "bulk": {"BACKEND": "django.tasks.backends.dummy.DummyBackend", "QUEUES": ["bulk"]},
}


@task
def charge_order(order_id):  # expect: JC501
    requests.post("https://psp.example/charges", json={"order": order_id})


@task(backend="bulk")
def export_orders():  # expect: JC501
    requests.post("https://warehouse.example/exports", json={})


@task
@retry(stop=stop_after_attempt(3))
def push_stock(sku):  # expect: JC501
    requests.post("https://erp.example/stock", json={"sku": sku})  # expect: JC201
