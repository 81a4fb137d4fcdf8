# jobcheck-test: select=JC201,JC501
# Huey, as its documentation writes it. Tasks do not retry unless `retries=N`; `raise RetryTask`
# re-enqueues a task whatever `retries` says. Hooks and signal handlers are not tasks: callbacks
# the consumer runs.
import requests
from django.core.mail import send_mail
from huey import RedisHuey, crontab
from huey.exceptions import RetryTask
from huey.signals import SIGNAL_ERROR

huey = RedisHuey("shop")


@huey.task(retries=3, retry_delay=10)
def push_order(order_id):  # expect: JC501
    requests.post("https://erp.example/orders", json={"id": order_id})  # expect: JC201


@huey.task()
def send_welcome(address):  # expect: JC501
    send_mail("Welcome", "Hi", "shop@example.com", [address])  # no retries


@huey.task(context=True)
def sync_when_ready(account_id, task=None):  # expect: JC501
    if not huey.storage.peek_data(f"ready-{account_id}"):
        raise RetryTask(delay=60)  # before the effect: repeats nothing
    requests.post("https://crm.example/sync", json={"account": account_id})


@huey.task()
def notify_all(addresses):  # expect: JC501
    for address in addresses:
        send_mail("News", "...", "news@example.com", [address])  # expect: JC201
        if huey.storage.peek_data("paused"):
            raise RetryTask(delay=300)


@huey.periodic_task(crontab(minute="0", hour="3"))
def nightly_cleanup():  # expect: JC501
    print("cleanup")


@huey.db_periodic_task(crontab(minute="*/15"), retries=2)
def poll_payments():  # expect: JC501
    requests.post("https://psp.example/settle", json={})  # expect: JC201


@huey.on_startup()
def open_connections():  # expect: JC501
    print("startup")


@huey.signal(SIGNAL_ERROR)
def report_error(signal, task, exc=None):  # expect: JC501
    send_mail("Task failed", str(exc), "ops@example.com", ["ops@example.com"])


def checkout(order_id):
    push_order(order_id)
