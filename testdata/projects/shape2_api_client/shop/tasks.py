# jobcheck-test: select=JC201,JC501
# Retried tasks calling the application's own API clients from another module. The writes are
# found only by following the client's methods to the call that finally sends.
import requests
from celery import shared_task

from shop.clients import CrmClient, PartnerClient

partner = PartnerClient()


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5)
def push_order(order):  # expect: JC501
    partner.create_order(order)  # expect: JC201


@shared_task(autoretry_for=(OSError,), max_retries=3)
def note_refund(contact_id, amount):  # expect: JC501
    CrmClient().add_note(contact_id, f"refunded {amount}")  # expect: JC201


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5)
def check_order(order_id):  # expect: JC501
    return partner.get_order(order_id)  # a read


@shared_task(autoretry_for=(OSError,), max_retries=3)
def load_contact(contact_id):  # expect: JC501
    return CrmClient().contact(contact_id)  # a read: no body, a GET
