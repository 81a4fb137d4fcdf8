# jobcheck-test: select=JC501
# Receivers of the signals a Celery worker sends around each task it runs (task_prerun,
# task_postrun, task_success, task_failure, task_retry...), connected by decorator or by
# `connect(receiver)`: they run in the worker, once per task. Not the publisher's signals
# (`before_task_publish`, `after_task_publish`: the code that enqueues sends them), nor a
# function no signal names.
import requests
from celery import signals
from celery.signals import after_task_publish, task_failure, task_prerun, task_retry


@task_prerun.connect
def mark_started(task_id, task, **kwargs):  # expect: JC501
    requests.post("https://status.example/started", json={"task": task_id})


@task_failure.connect()
def report_failure(task_id, exception, **kwargs):  # expect: JC501
    requests.post("https://status.example/failed", json={"task": task_id, "error": str(exception)})


def count_retry(request, reason, **kwargs):  # expect: JC501
    requests.post("https://status.example/retried", json={"task": request.id})


def mark_done(sender, result, **kwargs):  # expect: JC501
    requests.post("https://status.example/done", json={"task": sender.request.id})


task_retry.connect(count_retry)
signals.task_success.connect(mark_done)


@after_task_publish.connect
def mark_queued(sender, headers, **kwargs):
    requests.post("https://status.example/queued", json={"task": headers["id"]})


def not_connected(task_id, **kwargs):
    requests.post("https://status.example/other", json={"task": task_id})
