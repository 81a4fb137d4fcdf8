# jobcheck-test: select=JC201,JC202,JC203,JC501
import django_rq
import requests
from celery import shared_task

from shop.models import Customer
from shop.policies import network_retry, with_retries
from shop.retrying import log_errors, requeue_on_failure, retry_on, self_retrying


@shared_task
@retry_on(on=(requests.ConnectionError,), exclude=(requests.HTTPError,))
def push_order(order_id):  # expect: JC501
    requests.post("https://erp.example/orders", json={"id": order_id})  # expect: JC201


@shared_task(bind=True, max_retries=5)
@self_retrying
def sync_customer(self, customer_id):  # expect: JC501
    requests.post("https://crm.example/customers", json={"id": customer_id})  # expect: JC201


@requeue_on_failure(attempts=5)
def send_sms(phone, text):  # expect: JC501
    requests.post("https://sms.example/send", json={"to": phone, "text": text})  # expect: JC201


@shared_task
@retry_on(on=(Customer.DoesNotExist,))
def welcome(customer_id):  # expect: JC501
    # The retry can only come from the lookup, before the effect: nothing is repeated.
    customer = Customer.objects.get(id=customer_id)
    requests.post("https://mail.example/welcome", json={"to": customer.email})


@shared_task
@log_errors
def ping_partner(partner_id):  # expect: JC501
    requests.post("https://partner.example/ping", json={"id": partner_id})


def signup(phone):
    django_rq.get_queue("default").enqueue(send_sms, phone, "welcome")


@shared_task
@with_retries(attempts=3)
def push_refund(refund_id):  # expect: JC501
    requests.post("https://psp.example/refunds", json={"id": refund_id})  # expect: JC201


@network_retry
def notify_partner(partner_id):
    """Not a job: a helper retried by the application's own decorator."""
    requests.post("https://partner.example/notify", json={"id": partner_id})  # expect: JC201
