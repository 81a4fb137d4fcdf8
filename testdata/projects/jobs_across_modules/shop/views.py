# jobcheck-test: select=JC201,JC501
# Enqueue calls naming their targets by dotted string, with the retry setting at the call.
from django_q.tasks import schedule
from django_rq import get_queue
from rq import Retry

from shop.jobs import format_price


def checkout(order_id, address, sku):
    queue = get_queue("default")
    queue.enqueue("shop.jobs.send_receipt", order_id, address, retry=Retry(max=3, interval=60))
    queue.enqueue("shop.jobs.push_order", order_id, retry=Retry(max=5))
    queue.enqueue("shop.jobs.sync_stock", sku)
    schedule("shop.jobs.rebuild_feed", schedule_type="H")
    return format_price(100)
