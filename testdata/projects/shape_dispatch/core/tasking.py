"""The application's own tasking system: `dispatch(func, ...)` runs `func` on a worker."""
import importlib
import re

from celery import shared_task
from redis import Redis
from rq import Queue, Retry


@shared_task(autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)
def execute(path, args, kwargs):  # expect: JC501
    module, _, name = path.rpartition(".")
    func = getattr(importlib.import_module(module), name)
    return func(*args, **kwargs)


def dispatch(func, *args, **kwargs):
    """Send `func` to a worker by its dotted path (functions do not pickle across deploys)."""
    path = f"{func.__module__}.{func.__qualname__}"
    return execute.delay(path, args, kwargs)


def dispatch_event(handler, payload):
    """A look-alike: it calls the handler right here, in the request."""
    return handler(payload)


class Dispatcher:
    """The same system's RQ side: the function itself is enqueued, with a retry."""

    def __init__(self):
        self.queue = Queue("default", connection=Redis())

    def submit(self, func, *args, **kwargs):
        return self.queue.enqueue(func, *args, retry=Retry(max=3, interval=[10, 60]), **kwargs)

    def submit_quietly(self, func, *args):
        job = func  # a local holding the parameter: still what the callers pass
        return self.queue.enqueue(job, *args)


dispatcher = Dispatcher()


@shared_task
def record_call(name):  # expect: JC501
    """Records a function's name: it never imports or runs what the name says."""
    print("called", name)


def traced(func, *args):
    """A look-alike: it enqueues the function's name for the record and runs the function here."""
    record_call.delay(func.__qualname__)
    return func(*args)


def enqueue_cleaned(text):
    """A regular expression with a dot is no dotted path (`\\).*$` named nothing, and broke the
    name resolution it was handed to)."""
    return Queue("default", connection=Redis()).enqueue(print, re.sub(r"\).*$", "", text))
