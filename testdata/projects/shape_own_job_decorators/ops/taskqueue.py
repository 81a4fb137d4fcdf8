"""A task queue's own `task` decorator (named as Celery's `X.task` is, but no Celery app's): the
function is wrapped in a `Task` built with keywords and kept in the registry its worker reads."""


class Task:
    def __init__(self, func, name=None):
        self.func = func
        self.name = name or func.__name__

    def delay(self, *args):
        QUEUE.append((self.name, args))


QUEUE = []
REGISTRY = {}


def task(name=None):
    def decorator(fn):
        t = Task(func=fn, name=name)
        REGISTRY[t.name] = t
        return t

    return decorator
