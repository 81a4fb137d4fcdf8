from redis import Redis
from rq import Queue, Retry

low = Queue("low", connection=Redis())


def enqueue_path(path, *args):
    """Jobs named by their dotted path, so workers import them lazily."""
    return low.enqueue(path, *args, retry=Retry(max=5, interval=[30, 300]))
