# jobcheck-test: select=JC201,JC501
# The djhuey module-level decorators; `retries=` given when the task is called overrides the
# decorator's (none) for that call.
from django.core.mail import send_mail
from huey import crontab
from huey.contrib.djhuey import db_task, on_commit_task, periodic_task, task


@task()
def send_code(address, code):  # expect: JC501
    send_mail("Your code", code, "auth@example.com", [address])  # expect: JC201


@db_task()
def recount(product_id):  # expect: JC501
    print(product_id)


@on_commit_task()
def after_commit(order_id):  # expect: JC501
    print(order_id)


@periodic_task(crontab(minute="*/5"))
def every_five_minutes():  # expect: JC501
    print("tick")


def login(address, code):
    send_code(address, code, retries=2)
