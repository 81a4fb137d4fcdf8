# jobcheck-test: select=JC201,JC501
# Flask extensions subclass Celery and keep its name (`flask_celery.Celery`, Flask-Celery-Helper):
# jobcheck does not read the library, but an app built from a `Celery` class is a Celery app.
import requests
from flask_celery import Celery

celery = Celery()


@celery.task(autoretry_for=(requests.RequestException,), max_retries=3)
def push_report(report_id):  # expect: JC501
    requests.post("https://reports.example/push", json={"id": report_id})  # expect: JC201


@celery.task
def refresh(report_id):  # expect: JC501
    requests.get(f"https://reports.example/{report_id}")


class Registry:
    def task(self, func):
        return func


registry = Registry()


@registry.task
def not_a_job(report_id):
    requests.post("https://reports.example/push", json={"id": report_id})
