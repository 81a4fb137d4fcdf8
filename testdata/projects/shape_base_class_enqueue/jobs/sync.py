# jobcheck-test: select=JC201,JC501
import requests

from jobs.base import BaseJob, Step


class SyncInvoice(BaseJob):  # expect: JC501
    def run(self, invoice_id):
        requests.post("https://ledger.example/invoices", json={"id": invoice_id})  # expect: JC201


class RefreshRates(BaseJob):  # expect: JC501
    queue_name = "low"

    def run(self):
        requests.get("https://rates.example/latest")  # a read: safe to repeat


class NotifyPartner(Step):
    def run(self):
        requests.post("https://partner.example/notify", json={})


def on_invoice_saved(invoice_id):
    SyncInvoice(invoice_id=invoice_id).enqueue()
    RefreshRates().enqueue()
    NotifyPartner().execute()
