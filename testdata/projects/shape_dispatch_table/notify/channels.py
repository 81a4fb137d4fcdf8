# jobcheck-test: select=JC201,JC401
"""Tables of functions: which one runs is picked by a key at run time, so a call through the
table runs any of them."""
import requests
from django.core.mail import send_mail
from twilio.rest import Client


def send_email(notification):
    send_mail("Notice", notification.body, "ops@example.com", [notification.email])


def send_sms(notification):
    Client().messages.create(to=notification.phone, from_="+15550000", body=notification.body)


def post_webhook(payload):
    requests.post("https://hooks.example/events", json=payload)


def lookup_status(payload):
    return requests.get("https://status.example/", params=payload).json()


CHANNELS = {
    "email": ("E-mail", lambda: True, send_email),
    "sms": ("SMS", lambda: True, send_sms),
}
HANDLERS = {"webhook": post_webhook}
READERS = {"status": lookup_status}
NAMES = ["email", "sms"]
POST_KEY = "post"
STATUS_KEY = "status"
MIXED = {POST_KEY: post_webhook, STATUS_KEY: lookup_status}
