# jobcheck-test: select=JC201
# A retried task hands its event to handler objects chosen at run time (from a configuration),
# through the hook their base leaves to them: what each implementation does, a retry repeats.
# Clean look-alikes: an object named after no class of the family (a database cursor), a
# family whose implementations only read, and objects of a known type whose method of that name
# is another's (a logging handler's `handle`, an executor's `submit`).
import logging
from concurrent.futures import ThreadPoolExecutor

import requests
from celery import shared_task


class Notifier:
    def notify(self, event):
        raise NotImplementedError


class WebhookNotifier(Notifier):
    def notify(self, event):
        requests.post("https://hooks.example/events", json=event)


class LogNotifier(Notifier):
    def notify(self, event):
        print(event)


class Probe:
    def probe(self, target):
        pass


class HttpProbe(Probe):
    def probe(self, target):
        return requests.get(target).status_code


def configured(names):
    return [globals()[name]() for name in names]


@shared_task(autoretry_for=(Exception,), max_retries=3)
def fan_out(event, names):
    for notifier in configured(names):
        notifier.notify(event)  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def check_all(targets, names, cursor):
    for probe in configured(names):
        for target in targets:
            probe.probe(target)
    cursor.notify("done")


class Handler:
    def handle(self, event):
        raise NotImplementedError


class WebhookHandler(Handler):
    def handle(self, event):
        requests.post("https://hooks.example/handled", json=event)


class JsonLogHandler(logging.Handler):
    def emit(self, record):
        print(self.format(record))


class Executor:
    def submit(self, job):
        raise NotImplementedError


class RemoteExecutor(Executor):
    def submit(self, job):
        requests.post("https://jobs.example/submit", json=job)


class Thumbnailer:
    def __init__(self):
        self.executor = ThreadPoolExecutor(max_workers=4)
        self.log_handler = JsonLogHandler()

    def make_all(self, paths):
        for path in paths:
            self.executor.submit(print, path)
            self.log_handler.handle(logging.makeLogRecord({"msg": path}))


@shared_task(autoretry_for=(Exception,), max_retries=3)
def thumbnails(paths):
    Thumbnailer().make_all(paths)
