import requests
from django.core.mail import send_mail
from django.dispatch import receiver

from ops.signals import hourly, nightly, user_signed_up


@hourly.connect
def refresh_rates(sender):  # expect: JC501
    requests.get("https://rates.example/latest")


@hourly.connect
def post_heartbeat(sender):  # expect: JC501
    requests.post("https://status.example/heartbeats", json={"from": sender})


@receiver(nightly)
def send_digest(sender, **kwargs):  # expect: JC501
    send_mail("Digest", "body", "ops@example.com", ["team@example.com"])


def purge_sessions(sender, **kwargs):  # expect: JC501
    print("purged")


nightly.connect(purge_sessions)


@receiver(user_signed_up)
def welcome(sender, user, **kwargs):
    send_mail("Welcome", "body", "hi@example.com", [user.email])
