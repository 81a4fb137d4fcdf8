# jobcheck-test: select=JC201,JC202,JC203,JC501
import requests
from celery import shared_task
from redis import Redis
from rq import Queue

from shop.settings import FOREVER_LOW, IMPATIENT, QUEUE_OPTIONS, RETRY_OPTIONS, get_retry, no_retry, task_options

queue = Queue("default", connection=Redis())
params = task_options(queue="billing")


@shared_task(**RETRY_OPTIONS)
def push_order(order_id):  # expect: JC501
    requests.post("https://erp.example/orders", json={"id": order_id})  # expect: JC201


@shared_task(**params)
def charge(invoice_id):  # expect: JC501
    requests.post("https://psp.example/charges", json={"invoice": invoice_id})  # expect: JC201


# expect: JC203
@shared_task(**IMPATIENT)
def ping_partner(partner_id):  # expect: JC501
    requests.post("https://partner.example/ping", json={"id": partner_id})  # expect: JC201


@shared_task(**QUEUE_OPTIONS)
def export(report_id):  # expect: JC501
    requests.post("https://warehouse.example/exports", json={"id": report_id})


# expect: JC202
@shared_task(**FOREVER_LOW)
def resend_receipt(self, order_id):  # expect: JC501
    requests.post("https://mail.example/receipts", json={"order": order_id})  # expect: JC201


@shared_task(**{**QUEUE_OPTIONS, "name": "shop.audit"})
def audit(order_id):  # expect: JC501
    requests.post("https://audit.example/orders", json={"id": order_id})


def send_sms(phone, text):  # expect: JC501
    requests.post("https://sms.example/send", json={"to": phone, "text": text})  # expect: JC201


def send_push(device, text):  # expect: JC501
    requests.post("https://push.example/send", json={"to": device, "text": text})


def on_signup(phone, device):
    queue.enqueue(send_sms, phone, "welcome", retry=get_retry())
    queue.enqueue(send_push, device, "welcome", retry=no_retry())
