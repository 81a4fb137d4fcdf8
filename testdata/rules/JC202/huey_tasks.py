# huey: `raise RetryTask` asks for a retry huey never counts against `retries`.
# jobcheck-test: select=JC202
import requests
from huey import RedisHuey
from huey.exceptions import RetryTask

huey = RedisHuey("shop")


@huey.task()  # expect: JC202
def push_order(order_id):
    response = requests.post("https://erp.example.com/orders", json={"id": order_id}, timeout=10)
    if response.status_code == 503:
        raise RetryTask(delay=60)


# Clean: exceptions retried up to a count; no retry at all.
@huey.task(retries=3, retry_delay=60)
def push_refund(refund_id):
    requests.post("https://erp.example.com/refunds", json={"id": refund_id}, timeout=10)


@huey.task()
def push_invoice(invoice_id):
    requests.post("https://erp.example.com/invoices", json={"id": invoice_id}, timeout=10)
