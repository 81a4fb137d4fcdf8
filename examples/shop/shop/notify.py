"""Helpers the jobs call: the effects live here, one module away from the jobs."""
from django.core.mail import EmailMessage


def tell_customer(address: str, subject: str, body: str) -> None:
    EmailMessage(subject, body, to=[address]).send()
