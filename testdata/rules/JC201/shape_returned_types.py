# jobcheck-test: select=JC201
# What a method returns, and what a property gives, has a type: a session a helper method
# builds, a client held behind a property, an SMTP class a property picks (called by its users).
import smtplib

import requests
from celery import shared_task


class Mailer:
    def __init__(self, ssl):
        self.ssl = ssl

    @property
    def smtp(self):
        return smtplib.SMTP_SSL if self.ssl else smtplib.SMTP

    def send(self, to, body):
        with self.smtp("mail.example") as conn:
            conn.sendmail("shop@example.com", [to], body)


class Partner:
    def session(self):
        return requests.Session()

    @property
    def client(self):
        return requests.Session()

    def push(self, order):
        self.session().post("https://partner.example/orders", json=order)

    def ping(self):
        self.client.post("https://partner.example/ping", json={})

    def status(self):
        return self.client.get("https://partner.example/status")


@shared_task(autoretry_for=(Exception,), max_retries=3)
def welcome(to):
    Mailer(ssl=True).send(to, "hi")  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def push_order(order):
    Partner().push(order)  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def ping_partner():
    Partner().ping()  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def check_partner():
    return Partner().status()  # a read: safe to repeat
