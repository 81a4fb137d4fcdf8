"""A decorator named like Celery's own (`celerylib.task`): it registers a wrapper on the app and
returns a function that enqueues it, or runs the work inline when Celery is off."""
from billing.celery_app import app

USE_CELERY = True


def task(f_org):
    def f_async(*args, **kwargs):
        return f_org(*args, **kwargs)

    runner = app.task(name=f_org.__name__, ignore_result=True)(f_async)

    def f_wrapped(*args, **kwargs):
        if USE_CELERY:
            return runner.apply_async(args=args, kwargs=kwargs)
        return f_org(*args, **kwargs)

    return f_wrapped
