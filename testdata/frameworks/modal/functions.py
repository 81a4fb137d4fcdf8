# jobcheck-test: select=JC201,JC203,JC501
# Modal: `@app.function(...)` on a `modal.App()`; `schedule=` makes it periodic; `retries=` runs a
# failed input again (none by default).
import modal
import requests

app = modal.App(name="reports")
stub = modal.Stub("legacy")


@app.function(schedule=modal.Period(hours=1))
def refresh_rates():  # expect: JC501
    return requests.get("https://rates.example/latest", timeout=10).json()


@app.function(retries=3, timeout=600)
def push_report(report_id):  # expect: JC501
    requests.post("https://reports.example/push", json={"id": report_id}, timeout=10)  # expect: JC201


@app.function(retries=modal.Retries(max_retries=4, backoff_coefficient=2.0, initial_delay=5.0))
def deliver(report_id):  # expect: JC501
    requests.post("https://hooks.example/in", json={"id": report_id}, timeout=10)  # expect: JC201


@app.function(schedule=modal.Cron("0 6 * * *"))
def send_digest():  # expect: JC501
    requests.post("https://mail.example/digest", json={}, timeout=10)


@stub.function()
def legacy_task(item_id):  # expect: JC501
    requests.post("https://erp.example/items", json={"id": item_id}, timeout=10)


def not_modal(item_id):
    requests.post("https://erp.example/items", json={"id": item_id}, timeout=10)
