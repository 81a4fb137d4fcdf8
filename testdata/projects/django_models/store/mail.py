from django.core.mail import EmailMultiAlternatives


def build_receipt(address):
    message = EmailMultiAlternatives("Receipt", "body", to=[address])
    message.attach_alternative("<p>body</p>", "text/html")
    return message
