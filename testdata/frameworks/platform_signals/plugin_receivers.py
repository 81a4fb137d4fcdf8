# A plugin's receivers of the signal its platform sends from its own periodic run (pretix's and
# pretalx's `periodic_task`) are periodic jobs, although the sender is not in the plugin. Receivers
# of other signals (sent while a request is served) are not.
# jobcheck-test: select=JC501
import requests
from django.dispatch import receiver
from pretalx.common.signals import periodic_task as pretalx_periodic
from pretix.base.signals import order_placed, periodic_task


@receiver(periodic_task, dispatch_uid="sync_attendees")
def sync_attendees(sender, **kwargs):  # expect: JC501
    requests.post("https://crm.example/attendees")


@receiver(pretalx_periodic)
def export_schedule(sender, **kwargs):  # expect: JC501
    requests.put("https://cdn.example/schedule.json")


@receiver(order_placed, dispatch_uid="notify_crm")
def notify_crm(sender, order, **kwargs):
    requests.post("https://crm.example/orders", json={"code": order.code})
