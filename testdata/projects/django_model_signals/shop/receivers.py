# jobcheck-test: select=JC501
# Receivers of Django's model signals for a model a task saves or deletes run in that task: jobs
# too. A receiver for a model no job writes runs in the requests that do, and one connected for
# every model (no `sender`) is nobody's job in particular.
import requests
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save
from django.dispatch import receiver

from shop.models import Invoice, Order, Visit


@receiver(post_save, sender=Order)
def push_order(sender, instance, created, **kwargs):  # expect: JC501
    requests.post("https://erp.example/orders", json={"id": instance.pk, "state": instance.state})


def stamp_invoice(sender, instance, **kwargs):  # expect: JC501
    instance.number = instance.number or "INV"


pre_save.connect(stamp_invoice, sender=Invoice)


@receiver([pre_delete, post_delete], sender=Invoice)
def void_invoice(sender, instance, **kwargs):  # expect: JC501
    requests.post("https://erp.example/void", json={"number": instance.number})


@receiver(post_save, sender=Visit)
def count_visit(sender, instance, **kwargs):
    requests.post("https://stats.example/visits", json={"path": instance.path})


@receiver(post_save)
def audit(sender, instance, **kwargs):
    requests.post("https://audit.example/saved", json={"model": sender.__name__})
