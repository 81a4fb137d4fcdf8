"""Decorators chosen at import time by a setting: the factory returns Celery's or Huey's."""
BACKEND = "celery"


def pick_task_decorator(backend):
    if backend == "celery":
        from celery import shared_task

        def task(func):
            registered = shared_task(func)

            def enqueue(*args, **kwargs):
                return registered.delay(*args, **kwargs)

            return enqueue

        return task
    if backend == "huey":
        from huey.contrib.djhuey import db_task

        return db_task()
    return lambda func: func


def pick_periodic_decorator(backend):
    if backend == "huey":
        from huey import crontab
        from huey.contrib.djhuey import db_periodic_task

        def periodic(**when):
            return db_periodic_task(crontab(**when))

        return periodic

    def inline(**when):
        return lambda func: func

    return inline


def pick_nothing(backend):
    """A look-alike factory: its decorators register nothing."""
    def mark(func):
        func.marked = backend
        return func

    return mark


task = pick_task_decorator(BACKEND)
periodic = pick_periodic_decorator(BACKEND)
marked = pick_nothing(BACKEND)
