# The application's own queue: the decorator registers the function by its dotted path and attaches
# `.delay`, which stores the call's arguments in a row that a worker process runs later. It is
# named like Celery's decorator and is not Celery's.
import json

from tracker.queue.models import Task, Usage

registry = {}
plugins = {}


def shared_task(function):
    def delayed_function(*args, **kwargs):
        Task.objects.create(task_name=name, args=json.dumps(args), kwargs=json.dumps(kwargs))

    name = function.__module__ + "." + function.__name__
    function.delay = delayed_function
    registry[name] = function
    return function


def plugin(function):
    """A registry with nothing deferred: a plugin table, not a queue."""
    plugins[function.__name__] = function
    return function


def counted(function):
    """Attaches a callable that writes a row, but not the call's arguments: a usage counter."""
    def count():
        Usage.objects.create(name=function.__name__)

    function.count = count
    return function


def described(function):
    """Attaches a callable with no write at all."""
    def describe(*args):
        return f"{function.__name__}{args}"

    function.describe = describe
    return function
