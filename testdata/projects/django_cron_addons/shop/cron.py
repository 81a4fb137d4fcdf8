# jobcheck-test: select=JC501,JC201
# django-cron: a CronJobBase subclass's `do` is the job; RETRY_AFTER_FAILURE_MINS runs a failed
# `do` again at the next runcrons. django-crontab's CRONJOBS names functions and commands.
import requests
from django_cron import CronJobBase, Schedule


class SendReminders(CronJobBase):  # expect: JC501
    RUN_EVERY_MINS = 60
    RETRY_AFTER_FAILURE_MINS = 5
    schedule = Schedule(run_every_mins=RUN_EVERY_MINS, retry_after_failure_mins=RETRY_AFTER_FAILURE_MINS)
    code = "shop.send_reminders"

    def do(self):
        for customer in due_customers():
            requests.post("https://mail.example/send", json={"to": customer})  # expect: JC201


class RefreshCache(CronJobBase):  # expect: JC501
    schedule = Schedule(run_every_mins=10)
    code = "shop.refresh_cache"

    def do(self):
        requests.get("https://catalog.example/prices")


class ConventionOnly(CronJobBase):  # expect: JC501
    """RETRY_AFTER_FAILURE_MINS not passed to Schedule: nothing runs it again."""

    RETRY_AFTER_FAILURE_MINS = 5
    schedule = Schedule(run_every_mins=30)
    code = "shop.convention_only"

    def do(self):
        for customer in due_customers():
            requests.post("https://mail.example/send", json={"to": customer})


class BaseExport(CronJobBase):
    """An abstract base: no schedule of its own. Its subclasses are the jobs."""

    def do(self):
        self.export()

    def export(self):
        raise NotImplementedError


class ExportOrders(BaseExport):  # expect: JC501
    schedule = Schedule(run_every_mins=60)
    code = "shop.export_orders"

    def export(self):
        requests.post("https://warehouse.example/orders")


class NotACronJob:
    def do(self):
        requests.post("https://mail.example/send")


def due_customers():
    return []


def purge_carts():  # expect: JC501
    requests.delete("https://carts.example/stale")


def helper_never_scheduled():
    requests.delete("https://carts.example/all")
