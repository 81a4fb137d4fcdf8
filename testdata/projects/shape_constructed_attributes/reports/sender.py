# jobcheck-test: select=JC201
# A class keeps what its constructor is given (`self.delivery = delivery`); every construction in
# the project passes an instance of one of the application's classes (a local chosen in `if`
# arms), so a call of `self.delivery.send(...)` runs the `send` of each. Where some construction
# passes an object of no known type, nothing is assumed.
import backoff
from celery import shared_task

from reports.delivery import Archive, EmailDelivery, WebhookDelivery


class ReportSender:
    def __init__(self, config, delivery):
        self.config = config
        self.delivery = delivery

    @staticmethod
    def create(config):
        if config["method"] == "email":
            delivery = EmailDelivery(config)
        else:
            delivery = WebhookDelivery(config)
        return ReportSender(config, delivery)

    def send_report(self, files):
        self.delivery.send(files)


class Copier:
    def __init__(self, target):
        self.target = target

    def copy(self, files):
        self.target.send(files)


@shared_task(autoretry_for=(Exception,), max_retries=3, retry_backoff=True)
def send_reports(config, files):
    sender = ReportSender.create(config)
    sender.send_report(files)  # expect: JC201


@backoff.on_exception(backoff.expo, Exception, max_tries=3)
def copy_reports(files, target):
    Copier(Archive()).copy(files)
    Copier(target).copy(files)
