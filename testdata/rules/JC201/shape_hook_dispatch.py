# jobcheck-test: select=JC201
# A retried task hands its event to handler objects chosen at run time (from a configuration),
# through the hook their base leaves to them: what each implementation does, a retry repeats.
# Clean look-alikes: an object named after no class of the family (a database cursor), and a
# family whose implementations only read.
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
