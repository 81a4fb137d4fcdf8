import requests


def tell_partner(invoice_id):
    requests.post("https://partner.example/invoices", json={"id": invoice_id})
