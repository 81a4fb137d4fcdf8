"""`org/` has no `__init__.py` (a PEP 420 namespace package): the code imports `org.portal...`."""
from functools import wraps

from org.portal.celery import app


def recorded_task(orig=None, **options):
    def decorate(func):
        @wraps(func)
        def with_recorder(task, *args, **kwargs):
            return func(*args, recorder=task.request.id, **kwargs)

        options["bind"] = True
        return app.task(with_recorder, **options)

    return decorate(orig) if orig else decorate
