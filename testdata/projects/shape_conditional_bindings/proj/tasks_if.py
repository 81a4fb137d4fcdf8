# jobcheck-test: select=JC201,JC501
# The task decorator is Celery's when tasks are enabled, a no-op shim otherwise: the code is
# written for Celery, so `@shared_task` is read as Celery's.
import requests

from proj import settings

if settings.ENABLE_TASKS:
    from celery import shared_task
else:
    from proj.noop import noop_decorator as shared_task


@shared_task(autoretry_for=(requests.RequestException,), max_retries=3)
def push_report(report_id):  # expect: JC501
    requests.post("https://reports.example/push", json={"id": report_id})  # expect: JC201


@shared_task
def snapshot(report_id):  # expect: JC501
    try:
        requests.post("https://storage.example/snapshots", json={"id": report_id})  # expect: JC201
    except requests.RequestException:
        snapshot.retry()  # the module-level task object retries it
