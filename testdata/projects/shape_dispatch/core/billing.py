# jobcheck-test: select=JC201,JC501
import requests

from core.tasking import dispatch, dispatch_event, dispatcher, traced


def charge_invoice(invoice_id):  # expect: JC501
    requests.post("https://psp.example/charges", json={"invoice": invoice_id})  # expect: JC201


def rebuild_totals(account_id):  # expect: JC501
    print("totals", account_id)


def audit_event(payload):
    requests.post("https://audit.example/events", json=payload)


def on_invoice_due(invoice_id, account_id):
    dispatch(charge_invoice, invoice_id)
    dispatch(rebuild_totals, account_id=account_id)
    dispatch_event(audit_event, {"invoice": invoice_id})


def send_statement(account_id):  # expect: JC501
    requests.post("https://mail.example/statements", json={"account": account_id})  # expect: JC201


def on_month_end(account_id):
    dispatcher.submit(send_statement, account_id)


def audit_totals(account_id):
    requests.post("https://audit.example/totals", json={"account": account_id})


def on_audit(account_id):
    traced(audit_totals, account_id)


def send_reminder(account_id):  # expect: JC501
    requests.post("https://mail.example/reminders", json={"account": account_id})  # not retried


def on_overdue(account_id):
    dispatcher.submit_quietly(send_reminder, account_id)
