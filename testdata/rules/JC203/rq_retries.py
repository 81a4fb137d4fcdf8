# RQ retries only with a Retry, at the decorator or the enqueue call; without an interval it
# puts the job straight back on the queue.
import requests
from redis import Redis
from rq import Queue, Retry
from rq.decorators import job

redis = Redis()
queue = Queue(connection=redis)
INTERVALS = [10, 60, 300]


@job("default", connection=redis, retry=Retry(max=5))  # expect: JC203
def send_webhook(url, payload):
    requests.post(url, json=payload, timeout=10)


def resize_image(image_id):
    requests.get(f"https://images.example.com/{image_id}", timeout=10)


def import_feed(feed_id):
    requests.get(f"https://feeds.example.com/{feed_id}", timeout=10)


def poll_carrier(shipment_id):
    requests.get(f"https://carrier.example.com/{shipment_id}", timeout=10)


def schedule_work(image_id, feed_id, shipment_id):
    queue.enqueue(resize_image, image_id, retry=Retry(max=3, interval=0))  # expect: JC203
    queue.enqueue(import_feed, feed_id, retry=Retry(max=4, interval=[0, 0, 0, 0]))  # expect: JC203
    queue.enqueue(poll_carrier, shipment_id, retry=Retry(max=10, interval=0.5))  # expect: JC203


# Clean: growing intervals, a real constant interval, an interval from a name, a single
# retry, no Retry at all.

@job("default", connection=redis, retry=Retry(max=3, interval=[10, 30, 60]))
def growing(url):
    requests.post(url, timeout=10)


@job("default", connection=redis, retry=Retry(max=3, interval=60))
def constant_minute(url):
    requests.post(url, timeout=10)


@job("default", connection=redis, retry=Retry(max=3, interval=INTERVALS))
def intervals_from_a_name(url):
    requests.post(url, timeout=10)


@job("default", connection=redis, retry=Retry(max=1))
def one_retry(url):
    requests.post(url, timeout=10)


@job("default", connection=redis)
def no_retry(url):
    requests.post(url, timeout=10)


def rebuild_index(shard):
    requests.post(f"https://search.example.com/{shard}/rebuild", timeout=10)


def schedule_rebuilds():
    queue.enqueue(rebuild_index, 1, retry=Retry(max=3, interval=[10, 30, 60]))
    # One policy per function: the first enqueue's Retry is the one read, not this one.
    queue.enqueue(rebuild_index, 2, retry=Retry(max=5))  # todo-expect: JC203
