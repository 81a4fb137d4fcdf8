import django_rq
from rq import Retry


def start_job_async_or_sync(job, *args, in_seconds=0, **kwargs):
    """The application's own enqueue helper: it forwards `job` to RQ, with a retry."""
    queue = django_rq.get_queue("default")
    return queue.enqueue(job, *args, retry=Retry(max=3, interval=[10, 60]), **kwargs)


def run_later(func, *args):
    return start_job_async_or_sync(func, *args)


def start_later(job, *args, in_seconds=0):
    # A binding in an if-arm does not replace the one that dominates it.
    queue = django_rq.get_queue("default")
    enqueue = queue.enqueue
    if in_seconds:
        enqueue = queue.enqueue_at
    return enqueue(job, *args)


def enqueue(*args, **kwargs):
    """Passes every argument on: a call of it is a call of django-rq's `enqueue` (or the queue's)."""
    try:
        return django_rq.enqueue(*args, **kwargs)
    except AttributeError:
        return django_rq.get_queue("default").enqueue(*args, **kwargs)


def log_later(*args, **kwargs):
    # Passes everything on too, to something that runs nothing.
    return print(*args, **kwargs)


def run_synchronously(*args, **kwargs):  # expect: JC501
    """Passes everything on; handed to an enqueue as a value, it is the job itself."""
    return print(*args, **kwargs)
