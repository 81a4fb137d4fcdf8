# jobcheck-test: select=JC201,JC501
# django-rq, as its README writes it: `@job` bare, with a queue name, with options, and with a
# `Retry`; `django_rq.enqueue(f, ..., retry=Retry(...))` and `get_queue(...).enqueue(...)`.
# RQ retries only with a `Retry`: the jobs without one send once and are not JC201.
import django_rq
import requests
from django.core.mail import send_mail
from django_rq import job
from rq import Retry


@job("default")
def send_welcome(address):  # expect: JC501
    send_mail("Welcome", "Hi", "team@example.com", [address])


@job("high", timeout=600)
def sync_contacts(account_id):  # expect: JC501
    requests.post("https://crm.example/sync", json={"account": account_id})


@job("default", retry=Retry(max=3, interval=[10, 30, 60]))
def push_order(order_id):  # expect: JC501
    requests.post("https://erp.example/orders", json={"id": order_id})  # expect: JC201


@django_rq.job("mail", retry=Retry(max=2))
def send_receipt(address):  # expect: JC501
    send_mail("Receipt", "Thanks", "shop@example.com", [address])  # expect: JC201


def notify_partner(order_id):  # expect: JC501
    requests.post("https://partner.example/orders", json={"id": order_id})  # expect: JC201


def refresh_rates():  # expect: JC501
    requests.post("https://rates.example/refresh", json={})  # enqueued without a Retry


def place_order(order_id, address):
    push_order.delay(order_id)
    send_welcome.delay(address)
    django_rq.enqueue(notify_partner, order_id, retry=Retry(max=5))
    django_rq.get_queue("low").enqueue(refresh_rates)
