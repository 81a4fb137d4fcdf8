# jobcheck-test: select=JC201,JC501
import requests

from proj import app
from proj.apps import mail_app, reports_app, sync_app
from proj.celery import generic_app

@app.task(autoretry_for=(requests.RequestException,), max_retries=3, retry_backoff=True)
def push_order(order_id):  # expect: JC501
    requests.post("https://erp.example/orders", json={"id": order_id})  # expect: JC201


@reports_app.task(autoretry_for=(ConnectionError,), max_retries=5)
def upload_report(report_id):  # expect: JC501
    requests.post("https://reports.example/upload", json={"id": report_id})  # expect: JC201


@mail_app.task(autoretry_for=(ConnectionError,), max_retries=5)
def notify(user_id):  # expect: JC501
    requests.post("https://mail.example/send", json={"user": user_id})  # expect: JC201


@sync_app.task(autoretry_for=(ConnectionError,), max_retries=5)
def sync_stock(sku):  # expect: JC501
    requests.post("https://stock.example/sync", json={"sku": sku})  # expect: JC201


@sync_app.task
def stock_report(sku):  # expect: JC501
    requests.post("https://stock.example/report", json={"sku": sku})  # not retried


@generic_app.task(autoretry_for=(ConnectionError,), max_retries=5)
def charge(invoice_id):  # expect: JC501
    requests.post("https://psp.example/charges", json={"invoice": invoice_id})  # expect: JC201
