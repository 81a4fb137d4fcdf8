# InvenTree plugins: the background worker runs what `SCHEDULED_TASKS` names (a method of the
# plugin by name, a function by dotted path), what `offload_task` hands it, an `EventMixin`'s
# `process_event`, and a label printer's `print_labels` (its own) or else `print_label`. Retries depend on the
# deployment's broker, so none is claimed: no JC201 below.
# jobcheck-test: select=JC201,JC501
import requests
from InvenTree.tasks import ScheduledTask, offload_task, scheduled_task
from plugin import InvenTreePlugin
from plugin.mixins import EventMixin, LabelPrintingMixin, ScheduleMixin, SettingsMixin


def refresh_rates():  # expect: JC501
    requests.get("https://rates.example/today")


def notify_buyer(order_id):  # expect: JC501
    requests.post("https://mail.example/send", json={"order": order_id})


def render_preview(part_id):
    """Called in the request; never handed to the worker."""
    return requests.get(f"https://img.example/{part_id}")


class PriceSync(ScheduleMixin, SettingsMixin, InvenTreePlugin):
    NAME = "PriceSync"
    SCHEDULED_TASKS = {
        "prices": {"func": "sync_prices", "schedule": "H"},
        "rates": {"func": "plugins.refresh_rates", "schedule": "I", "minutes": 30},
    }

    def sync_prices(self):  # expect: JC501
        requests.get("https://supplier.example/prices")

    def helper(self):
        return 1


class OrderEvents(EventMixin, InvenTreePlugin):
    NAME = "OrderEvents"

    def wants_process_event(self, event):
        return event.startswith("purchaseorder.")

    def process_event(self, event, *args, **kwargs):  # expect: JC501
        offload_task(notify_buyer, kwargs.get("id"))


class ZebraPrinter(LabelPrintingMixin, InvenTreePlugin):
    NAME = "Zebra"
    BLOCKING_PRINT = False

    def print_label(self, **kwargs):  # expect: JC501
        requests.post("https://printer.local/print", data=kwargs["pdf_data"])


class BatchPrinter(LabelPrintingMixin, InvenTreePlugin):
    """Prints the whole batch itself: its `print_labels` is what the worker runs."""

    NAME = "Batch"

    def print_labels(self, label, output, items, request, **kwargs):  # expect: JC501
        for item in items:
            self.print_label(item=item)

    def print_label(self, **kwargs):
        requests.post("https://batch.local/print", json={"item": kwargs["item"].pk})


class NotScheduled(InvenTreePlugin):
    """Not a ScheduleMixin: its SCHEDULED_TASKS is never read by InvenTree."""

    SCHEDULED_TASKS = {"x": {"func": "tick", "schedule": "H"}}

    def tick(self):
        requests.get("https://example.org")


@scheduled_task(ScheduledTask.DAILY)
def purge_old_exports():  # expect: JC501
    requests.delete("https://files.example/exports")


class OrderSync(ScheduleMixin, SettingsMixin, InvenTreePlugin):
    """Its schedule depends on a setting: InvenTree reads what `get_scheduled_tasks()` returns."""

    NAME = "OrderSync"

    def get_scheduled_tasks(self):
        return {
            "orders": {"func": "sync_orders", "schedule": "I", "minutes": self.get_setting("MINUTES") or 60},
        }

    def sync_orders(self):  # expect: JC501
        requests.get("https://shop.example/orders")

    def refresh(self):
        requests.get("https://shop.example/refresh")


class StockCheck(ScheduleMixin, SettingsMixin, InvenTreePlugin):
    """Its override builds on `SCHEDULED_TASKS`: those entries are still scheduled."""

    NAME = "StockCheck"
    SCHEDULED_TASKS = {"check": {"func": "check_stock", "schedule": "I", "minutes": 15}}

    def get_scheduled_tasks(self):
        tasks = dict(self.SCHEDULED_TASKS)
        tasks["check"]["minutes"] = int(self.get_setting("MINUTES") or 15)
        return tasks

    def check_stock(self):  # expect: JC501
        requests.get("https://stock.example/levels")
