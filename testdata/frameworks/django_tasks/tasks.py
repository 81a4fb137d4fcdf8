# jobcheck-test: select=JC201,JC501,JC502
# Django's Tasks framework (Django 6.0+), as its documentation writes it. `@task` makes a `Task`
# of a module-level function, bare or called with options; `enqueue`/`aenqueue` run it. Django
# never retries a failed task (it ends FAILED), so an unguarded email or HTTP write is not a JC201
# here — only the missing five questions are reported.
import django.tasks
import httpx
import requests
from django import tasks
from django.core.mail import send_mail
from django.db import transaction
from django.tasks import task
from django.tasks import task as background


@task
def email_users(emails, subject, message):  # expect: JC501
    return send_mail(subject=subject, message=message, from_email=None, recipient_list=emails)


@task()
def ping_partner(order_id):  # expect: JC501
    requests.post("https://partner.example/orders", json={"id": order_id})


@task(priority=2, queue_name="emails", backend="default", takes_context=True)
def send_receipt(context, address, order_id):  # expect: JC501
    if context.attempt > 1:
        print(f"attempt {context.attempt} of {context.task_result.id}")
    send_mail("Receipt", f"Order {order_id}", "shop@example.com", [address])


@django.tasks.task(queue_name="webhooks")
def post_webhook(url, payload):  # expect: JC501
    requests.post(url, json=payload)


@tasks.task
async def refresh_rates():  # expect: JC501
    async with httpx.AsyncClient() as client:
        await client.post("https://rates.example/refresh", json={})


@background(priority=-10)
def rebuild_index():  # expect: JC501
    print("rebuilding")


@task(queue_name="emails")
def send_welcome(user_id, address):
    """Email the welcome message once per user.

    Reliability:
        Runs twice: safe; the Welcome row for user_id is created before sending, and a second run finds it.
        Overlaps: no; the row's unique constraint on user_id lets one run through.
        Dies mid-run: the row is committed first; a run that dies after it never sends, and ops re-enqueue from the admin.
        Retries: none; Django tasks are not retried, a failure ends FAILED in the task result.
        Idempotent: yes; keyed by user_id.
    """
    send_mail("Welcome", "Hi", "shop@example.com", [address])


def checkout(order_id, address):
    ping_partner.enqueue(order_id)
    send_receipt.using(priority=10).enqueue(address, order_id)
    with transaction.atomic():
        transaction.on_commit(lambda: email_users.enqueue([address], "Thanks", "..."))


async def acheckout(order_id):
    await post_webhook.aenqueue("https://hooks.example/", {"id": order_id})
