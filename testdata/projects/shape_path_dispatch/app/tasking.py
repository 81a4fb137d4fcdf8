# jobcheck-test: select=JC501
"""The application's own task queue: rows naming a function by its dotted path, which a worker
imports and runs."""
import logging
import time
from datetime import timedelta

from app.models import AuditEntry, Task, TaskSchedule

logger = logging.getLogger(__name__)


def function_name(func):
    if callable(func):
        name = f"{func.__module__}.{func.__name__}"
    else:
        name = func
    return name


def dispatch(func, args=()):
    name = function_name(func)
    payload = {"name": name, "args": list(args)}
    return Task.objects.create(**payload)


def dispatch_direct(func, *args):
    return Task.objects.create(name=f"{func.__module__}.{func.__qualname__}", args=list(args))


def configure_cleanup():
    task_name = "app.tasks.cleanup.purge_uploads"
    TaskSchedule.objects.update_or_create(name="uploads", defaults={"task_name": task_name, "interval": timedelta(hours=1)})


def timed(func):
    """Only logs the function's path: nothing stores it to run later."""
    name = f"{func.__module__}.{func.__name__}"
    started = time.monotonic()
    result = func()
    logger.info("%s took %.1fs", name, time.monotonic() - started)
    return result


def audit(action):
    AuditEntry.objects.create(action=action)


def schedule(name, task_name, every):
    TaskSchedule.objects.update_or_create(name=name, defaults={"task_name": task_name, "interval": every})


def remember(label, value):
    """Stores a value as given: a property or a bound method passed here names no job."""
    AuditEntry.objects.create(action=f"{label}: {value}")
