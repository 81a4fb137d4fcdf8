# jobcheck-test: select=JC201,JC501
# Task decorators made with `functools.partial` at module level (pyramid-transactional-celery's
# `task_tm = partial(app.task, base=TransactionalTask)`): `@task_tm` is `app.task` with the
# partial's keywords, retries included.
# A library app named `celery_app` (`from pyramid_celery import celery_app`) is a Celery app.
from functools import partial

import requests
from celery import Celery
from pyramid_celery import celery_app

app = Celery("books")


class TransactionalTask(app.Task):
    abstract = True


task_tm = partial(app.task, base=TransactionalTask)
retrying = partial(app.task, bind=True, autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)


@task_tm
def clean_old_connections():  # expect: JC501
    return None


@retrying
def push_rows(self, rows):  # expect: JC501
    requests.post("https://warehouse.example/rows", json=rows)  # expect: JC201


@celery_app.task(autoretry_for=(ConnectionError,), max_retries=3)
def notify_unused_logins():  # expect: JC501
    requests.post("https://mail.example/notices", json={"kind": "unused"})  # expect: JC201
