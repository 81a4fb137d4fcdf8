# Metaflow: each `@step` of a FlowSpec is a task its runtime or orchestrator runs; `@retry` runs a
# step again after any exception (3 times, 2 minutes apart, unless it says otherwise).
# jobcheck-test: select=JC201,JC203,JC501
import requests
from metaflow import FlowSpec, catch, retry, schedule, step


@schedule(daily=True)
class BillingFlow(FlowSpec):
    @step
    def start(self):  # expect: JC501
        self.invoices = requests.get("https://billing.example/due").json()
        self.next(self.charge)

    @retry(times=4)
    @step
    def charge(self):  # expect: JC501
        for invoice in self.invoices:
            requests.post("https://psp.example/charges", json=invoice)  # expect: JC201
        self.next(self.notify)

    @retry(times=2, minutes_between_retries=0)  # expect: JC203
    @step
    def notify(self):  # expect: JC501
        requests.put("https://chat.example/channels/billing", json={"text": "charged"})
        self.next(self.end)

    @catch(var="failure")
    @retry
    @step
    def end(self):  # expect: JC501
        requests.post(
            "https://ledger.example/entries",
            json={"run": "billing"},
            headers={"Idempotency-Key": "billing-end"},
        )

    def helper(self):
        """Not a step: no job."""
        requests.post("https://psp.example/charges", json={})


class NotAFlow:
    @step
    def start(self):
        """A `@step` outside a FlowSpec: nothing Metaflow runs."""
        requests.post("https://psp.example/charges", json={})
