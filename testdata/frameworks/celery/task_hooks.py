# jobcheck-test: select=JC501
# The methods a Celery worker calls on a task's class around each task (`__call__` wrapping the
# body, `before_start`, `on_success`, `on_retry`, `on_failure`, `after_return`), on a `Task`
# subclass used as `base=` or as the app's task class: they run in the worker, once per task.
# Not the methods the code that enqueues runs (`apply_async`, `delay`), nor those of a class
# that is no Task.
import requests
from celery import Celery, Task

app = Celery("proj", task_cls="proj.tasks:ReportingTask")


class ReportingTask(Task):
    def __call__(self, *args, **kwargs):  # expect: JC501
        requests.post("https://status.example/started", json={"task": self.name})
        return super().__call__(*args, **kwargs)

    def on_failure(self, exc, task_id, args, kwargs, einfo):  # expect: JC501
        requests.post("https://status.example/failed", json={"task": task_id})

    def apply_async(self, args=None, kwargs=None, **options):
        requests.post("https://status.example/queued", json={"task": self.name})
        return super().apply_async(args, kwargs, **options)

    def describe(self):
        return self.name


class AuditedTask(ReportingTask):
    def after_return(self, status, retval, task_id, args, kwargs, einfo):  # expect: JC501
        requests.post("https://audit.example/done", json={"task": task_id, "status": status})


class AppTask(app.Task):
    def on_success(self, retval, task_id, args, kwargs):  # expect: JC501
        requests.post("https://status.example/done", json={"task": task_id})


@app.task(base=AuditedTask)
def sync_account(account_id):  # expect: JC501
    requests.post("https://billing.example/sync", json={"account": account_id})


class Listener:
    def on_failure(self, exc):
        requests.post("https://status.example/listener", json={"error": str(exc)})
