"""Helpers the jobs call: the effects live here, one module away from the jobs."""
from django.core.mail import EmailMessage


def tell_customer(address: str, body: str) -> None:
    EmailMessage("Your invoice", body, to=[address]).send()
