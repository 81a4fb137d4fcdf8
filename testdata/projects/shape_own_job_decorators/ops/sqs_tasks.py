# A decorator factory whose inner decorator wraps the function in an object that sends it to a
# queue after the transaction commits (`send_on_commit` -> `on_commit(self._send)` -> SQS), not
# named for queueing: a task. One whose object only calls the function makes none.
import json

import boto3
from django.db import transaction


class QueuedCall:
    def __init__(self, func, queue="default"):
        self.func = func
        self.queue = queue

    def __call__(self, **kwargs):
        return self.func(**kwargs)

    def send_on_commit(self, **kwargs):
        self._kwargs = kwargs
        transaction.on_commit(self._send)

    def _send(self):
        boto3.client("sqs").send_message(QueueUrl=self.queue, MessageBody=json.dumps(self._kwargs))


class Timed:
    def __init__(self, func):
        self.func = func

    def measure(self, **kwargs):
        return self.func(**kwargs)


def sqs_task(func=None, *, queue="default"):
    def _decorate(f):
        return QueuedCall(f, queue=queue)

    if func is not None:
        return _decorate(func)
    return _decorate


def timed(func=None):
    def _decorate(f):
        return Timed(f)

    if func is not None:
        return _decorate(func)
    return _decorate


@sqs_task
def purge_records(*, days=7):  # expect: JC501
    pass


@sqs_task(queue="exports")
def export_rows(*, table):  # expect: JC501
    pass


@timed
def render(*, page):
    pass
