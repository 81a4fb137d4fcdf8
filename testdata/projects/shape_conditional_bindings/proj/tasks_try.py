# jobcheck-test: select=JC201,JC501
# `try: from celery import ... except ImportError: <fallback>`, with the fallback a function of
# the module's own, an assignment, or a relative import: the library's binding is the one read.
import requests

try:
    from celery import shared_task
except ImportError:
    def shared_task(*args, **kwargs):
        return lambda func: func

try:
    from celery import Celery
except ImportError:
    Celery = None

try:
    from celery.schedules import crontab
except ImportError:
    from .noop import noop_decorator as crontab

app = Celery("proj")


@shared_task(autoretry_for=(ConnectionError,), max_retries=5)
def sync_stock(sku):  # expect: JC501
    requests.post("https://stock.example/sync", json={"sku": sku})  # expect: JC201


@app.task(autoretry_for=(ConnectionError,), max_retries=5)
def notify(user_id):  # expect: JC501
    requests.post("https://mail.example/send", json={"user": user_id})  # expect: JC201


app.conf.beat_schedule = {"nightly": {"task": "proj.tasks_try.nightly", "schedule": crontab(hour=3)}}


@app.task
def nightly():  # expect: JC501
    print("nightly")
