# arq and RQ always count: clean whatever is written (a count, a count in a name, the defaults).
# jobcheck-test: select=JC202
import requests
from arq import Retry, func
from redis import Redis
from rq import Queue
from rq import Retry as RqRetry

RETRIES = 4
queue = Queue(connection=Redis())


async def push_order(ctx, order_id):
    response = requests.post("https://erp.example.com/orders", json={"id": order_id}, timeout=10)
    if response.status_code == 503:
        raise Retry(defer=ctx["job_try"] * 10)


async def push_refund(ctx, refund_id):
    response = requests.post("https://erp.example.com/refunds", json={"id": refund_id}, timeout=10)
    if response.status_code == 503:
        raise Retry(defer=30)


class WorkerSettings:
    functions = [push_order, func(push_refund, max_tries=None)]


def push_invoice(invoice_id):
    requests.post("https://erp.example.com/invoices", json={"id": invoice_id}, timeout=10)


def checkout(invoice_id):
    queue.enqueue(push_invoice, invoice_id, retry=RqRetry(max=RETRIES, interval=[10, 60]))
