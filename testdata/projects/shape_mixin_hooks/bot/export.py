# jobcheck-test: select=JC201,JC501
"""`@abstractmethod` stops instantiation only on an ABC: there, every instance runs the one
implementation its subclasses agree on; on a plain class, the base's own body can run."""
import abc

import requests
from celery import shared_task


class Exporter:
    @abc.abstractmethod
    def hook(self):
        print("a plain class: Exporter() runs this")

    def run(self):
        self.hook()


class S3Exporter(Exporter):
    def hook(self):
        requests.post("https://s3.example/upload")


class Publisher(abc.ABC):
    @abc.abstractmethod
    def hook(self):
        raise NotImplementedError

    def run(self):
        self.hook()


class WebhookPublisher(Publisher):
    def hook(self):
        requests.post("https://hooks.example/publish")


@shared_task(autoretry_for=(Exception,), max_retries=3)
def export():  # expect: JC501
    Exporter().run()


@shared_task(autoretry_for=(Exception,), max_retries=3)
def publish(publisher: Publisher):  # expect: JC501
    publisher.run()  # expect: JC201
