# jobcheck-test: select=JC201,JC501,JC502
# The django-tasks backport (`django_tasks`, for Django before 6.0): the same `@task`, from the
# package, from `django_tasks.base` (where it is defined) or `django_tasks.task` (before 0.8).
# Nothing retries a failed task here either.
import django_tasks
import requests
from django.core.mail import send_mail
from django_tasks import task
from django_tasks.base import task as base_task
from django_tasks.task import task as old_task


@task()
def calculate_meaning_of_life() -> int:  # expect: JC501
    return 42


@task(priority=10, queue_name="mail", enqueue_on_commit=True)
def send_invite(address):  # expect: JC501
    send_mail("Invite", "Join us", "team@example.com", [address])


@django_tasks.task(takes_context=True)
def notify_crm(context, account_id):  # expect: JC501
    requests.post("https://crm.example/accounts", json={"id": account_id, "attempt": context.attempt})


@base_task
def prune_sessions():  # expect: JC501
    print("pruning")


@old_task(backend="default")
def legacy_report():  # expect: JC501
    print("report")


def invite(address):
    send_invite.enqueue(address)
    calculate_meaning_of_life.using(queue_name="slow").enqueue()
