from django.core.mail import send_mail
from django.dispatch import receiver

from shop import signals
from shop.signals import order_paid, order_viewed


@receiver(order_paid)
def email_receipt(sender, order_id, **kwargs):
    send_mail("Receipt", "body", "shop@example.com", ["buyer@example.com"])


@receiver(order_viewed)
def count_view(sender, order_id, **kwargs):
    pass


def log_payment(sender, order_id, **kwargs):
    pass


order_paid.connect(log_payment)


def email_refund(sender, order_id, **kwargs):
    send_mail("Refund", "body", "shop@example.com", ["buyer@example.com"])


signals.order_refunded.connect(email_refund)  # connected through the module: a receiver all the same
