# Procrastinate: `retry=True` retries forever, as does a RetryStrategy with no max_attempts.
# jobcheck-test: select=JC202
import requests
from procrastinate import App, PsycopgConnector, RetryStrategy

app = App(connector=PsycopgConnector())


@app.task(retry=True)  # expect: JC202
def push_order(order_id):
    requests.post("https://erp.example.com/orders", json={"id": order_id}, timeout=10)


@app.task(retry=RetryStrategy(exponential_wait=2))  # expect: JC202
def push_refund(refund_id):
    requests.post("https://erp.example.com/refunds", json={"id": refund_id}, timeout=10)


# Clean: a count, a strategy with a count, no retry.
@app.task(retry=5)
def push_invoice(invoice_id):
    requests.post("https://erp.example.com/invoices", json={"id": invoice_id}, timeout=10)


@app.task(retry=RetryStrategy(max_attempts=5, exponential_wait=2))
def push_customer(customer_id):
    requests.post("https://erp.example.com/customers", json={"id": customer_id}, timeout=10)


@app.task
def push_stock(sku):
    requests.post("https://erp.example.com/stock", json={"sku": sku}, timeout=10)
