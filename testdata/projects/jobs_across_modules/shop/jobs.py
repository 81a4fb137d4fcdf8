# jobcheck-test: select=JC201,JC501
# Job bodies; what makes each a job (and retried) is written in other modules.
import requests
from django.core.mail import send_mail


def send_receipt(order_id, address):  # expect: JC501
    send_mail("Receipt", f"Order {order_id}", "shop@example.com", [address])  # expect: JC201


def push_order(order_id):  # expect: JC501
    requests.post("https://erp.example/orders", json={"id": order_id})  # expect: JC201


def sync_stock(sku):  # expect: JC501
    requests.post("https://erp.example/stock", json={"sku": sku})  # enqueued without a Retry


def rebuild_feed():  # expect: JC501
    requests.post("https://feeds.example/rebuild", json={})  # expect: JC201


def format_price(cents):
    return f"{cents / 100:.2f}"
