# A library's own name for Celery's `shared_task` (`nautobot_task` is Nautobot's), not analysed here:
# it makes tasks, as `.delay()` on one of them shows; every function it decorates is a task.
import requests
from nautobot.core.celery import nautobot_task
from somelib.tracing import traced
from celery import shared_task
from django.db import transaction


@nautobot_task
def run_command(command):  # expect: JC501
    requests.post("https://chat.example/reply", json={"command": command})


@nautobot_task
def sync_inventory():  # expect: JC501
    pass


@traced
def render(command):
    # Another library's decorator, on a function nothing enqueues: not a task.
    return str(command)


@traced
def summarise(command):
    # `.delay` on a result, not on a decorated function: says nothing about `traced`.
    return render(command).delay


@shared_task
@traced
def audit(command):  # expect: JC501
    """A known task with another library's decorator beside: that one wraps it, it makes no tasks."""


@traced
def unrelated(command):
    pass


@nautobot_task
@transaction.atomic
def sync_orders():  # expect: JC501
    """`.delay` is what the outermost decorator returns: `transaction.atomic` makes no tasks."""


@transaction.atomic
def checkout(order):
    try:
        requests.post("https://pay.example/charge", json={"order": order})
    except Exception:
        print("charge failed")


def on_message(command):
    sync_orders.delay()
    audit.apply_async(args=(command,))
    render(command)
    return run_command.delay(command)
