"""The application's own job classes: `SomeJob(...).enqueue()` puts `handle` on RQ, which runs `run`."""
import django_rq
from rq import Retry


class BaseJob:
    queue_name = "default"
    max_attempts = 3

    def __init__(self, **params):
        self.params = params

    def enqueue(self):
        queue = django_rq.get_queue(self.queue_name)
        return queue.enqueue(self.handle, retry=Retry(max=self.max_attempts, interval=[30, 120]))

    def handle(self):  # the base method handed to RQ; the jobs are the subclasses
        self.run(**self.params)

    def run(self, **params):
        raise NotImplementedError


class Step:
    """A look-alike: run synchronously by a pipeline, never enqueued."""

    def execute(self):
        return self.run()

    def run(self):
        raise NotImplementedError
