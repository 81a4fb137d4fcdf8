"""The application's own task decorators: options, retries included, go on to Celery."""
from functools import wraps

from celery import shared_task

from billing import metrics
from billing.celery_app import app


def app_task(name, **options):
    def wrap(func):
        @wraps(func)
        def run(*args, **kwargs):
            with metrics.timer(name):
                return func(*args, **kwargs)

        return app.task(name=name, **options)(run)

    return wrap


def shared(**options):
    """The same through `shared_task`, the wrapper applied with `@wraps` as a decorator."""
    def wrap(func):
        @shared_task(**options)
        @wraps(func)
        def run(*args, **kwargs):  # the generic wrapper, not the decorated function
            metrics.count(func.__name__)
            return func(*args, **kwargs)

        return run

    return wrap


def timed(name, **options):
    """A look-alike factory: it times the function and registers nothing."""
    def wrap(func):
        @wraps(func)
        def run(*args, **kwargs):
            with metrics.timer(name, **options):
                return func(*args, **kwargs)

        return run

    return wrap


def background(func):
    """Applied bare (`@background`): a task with Celery's defaults."""
    return shared_task(func)
