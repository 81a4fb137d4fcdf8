# A compatibility module: the library's objects when it is installed, shims otherwise. Other
# modules import them from here.
try:
    from celery import shared_task
except ImportError:
    def shared_task(*args, **kwargs):
        def wrap(func):
            return func
        return wrap

try:
    from celery import Celery
except ImportError:
    class Celery:
        def __init__(self, name):
            self.name = name

        def task(self, *args, **kwargs):
            return lambda func: func
