from django.core.mail import send_mail


def notify(address):
    send_mail("Hello", "body", "site@example.com", [address])
