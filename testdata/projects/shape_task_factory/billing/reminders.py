import requests

from billing.backends import marked, periodic, task


@task
def send_reminder(invoice_id):  # expect: JC501
    requests.post("https://mail.example/reminders", json={"invoice": invoice_id})


@periodic(hour=3, minute=0)
def close_overdue():  # expect: JC501
    requests.post("https://ledger.example/close-overdue", json={})


@marked
def preview(invoice_id):
    requests.post("https://mail.example/preview", json={"invoice": invoice_id})
