# jobcheck-test: select=JC201,JC501
# The library imported in a `try` that only sets a flag, and a later module-level `if` that
# rebinds the name to the module's own shim when the flag says the library is missing (no `else`):
# the code is written for the library, so the library's binding is the one read.
import requests

_CELERY_AVAILABLE = False
try:
    from celery import shared_task

    _CELERY_AVAILABLE = True
except ImportError:
    pass


def _noop_shared_task(fn=None, **_kwargs):
    if fn is None:
        return _noop_shared_task
    return fn


if not _CELERY_AVAILABLE:
    shared_task = _noop_shared_task


@shared_task(bind=True, autoretry_for=(ConnectionError,), max_retries=3)
def push_event(self, event_id):  # expect: JC501
    requests.post("https://events.example/push", json={"id": event_id})  # expect: JC201


def _local_trace(fn):
    return fn


# A name the module itself bound first: the `if` rebinds one shim to another, nothing of a library.
trace = _local_trace
if not _CELERY_AVAILABLE:
    trace = _noop_shared_task


@trace
def helper(order_id):
    requests.post("https://erp.example/orders", json={"id": order_id})
