# jobcheck-test: select=JC201
# tenacity applied where it is used, not as a decorator: the retrying block (`for attempt in
# Retrying(...): with attempt:`) runs its body again, and a retrier called with a function
# (`Retrying(...)(send, ...)`, one held in a local, `tenacity.retry(...)(send)(...)`) runs that
# function again.
import requests
import tenacity
from celery import shared_task
from tenacity import Retrying, stop_after_attempt, wait_exponential


def post_order(order):
    requests.post("https://partner.example.com/orders", json=order, timeout=5)  # expect: JC201


def post_refund(order):
    requests.post("https://partner.example.com/refunds", json=order, timeout=5)  # expect: JC201


def post_invoice(order):
    requests.post("https://partner.example.com/invoices", json=order, timeout=5)  # expect: JC201


def delete_hold(order):
    requests.delete(f"https://partner.example.com/holds/{order['id']}", timeout=5)


def post_keyed(order):
    requests.post("https://partner.example.com/orders", json=order, headers={"Idempotency-Key": order["id"]}, timeout=5)


def block(order):
    for attempt in Retrying(stop=stop_after_attempt(5), wait=wait_exponential(max=30)):
        with attempt:
            requests.post("https://partner.example.com/orders", json=order, timeout=5)  # expect: JC201


def block_keyed(order):
    for attempt in Retrying(stop=stop_after_attempt(5)):
        with attempt:
            requests.post("https://partner.example.com/orders", json=order, headers={"Idempotency-Key": order["id"]})


def block_reads(order):
    for attempt in Retrying(stop=stop_after_attempt(5)):
        with attempt:
            requests.get(f"https://partner.example.com/orders/{order['id']}", timeout=5)
    requests.post("https://partner.example.com/seen", json=order, timeout=5)  # after the block: once


def called(order):
    Retrying(stop=stop_after_attempt(3))(post_order, order)


def held(order):
    retryer = Retrying(stop=stop_after_attempt(3), reraise=True)
    retryer(post_refund, order)
    retryer(delete_hold, order)  # a DELETE: repeating it changes nothing
    retryer(post_keyed, order)


def decorated_at_call(order):
    tenacity.retry(stop=stop_after_attempt(3))(post_invoice)(order)


@shared_task(ignore_result=True)
def settle(order):  # the job that reaches the blocks (a retry loop is read where a job reaches it)
    block(order)
    block_keyed(order)
    block_reads(order)
    loop_over_orders([order])


@tenacity.retry(retry=tenacity.retry_if_result(lambda r: r is None), stop=stop_after_attempt(5))
def submit_until_accepted(order):  # each round (on a result it does not accept) runs the POST again
    return requests.post("https://partner.example.com/submissions", json=order, timeout=5).json().get("id")  # expect: JC201


def loop_over_orders(orders):
    for order in orders:  # a loop over items, no retrying block
        with open("/tmp/orders.log", "a") as log:
            log.write(str(order))
