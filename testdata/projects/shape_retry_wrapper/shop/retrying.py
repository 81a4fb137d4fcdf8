"""The application's own retry decorators: they catch and hand the failure to a retry."""
import logging
from functools import wraps

import django_rq
from celery import current_task

logger = logging.getLogger(__name__)


def retry_on(on=(Exception,), exclude=(), countdown=60):
    def decorator(func):
        @wraps(func)
        def wrapper(*args, **kwargs):
            try:
                return func(*args, **kwargs)
            except exclude:
                raise
            except on as exc:
                raise current_task.retry(exc=exc, countdown=countdown)

        return wrapper

    return decorator


def self_retrying(func):
    """For `bind=True` tasks: the task instance comes first."""
    @wraps(func)
    def wrapper(self, *args, **kwargs):
        try:
            return func(self, *args, **kwargs)
        except Exception as exc:
            raise self.retry(exc=exc)

    return wrapper


def requeue_on_failure(attempts=3):
    """RQ has no retry here: the job enqueues itself again."""
    def decorator(func):
        @wraps(func)
        def wrapper(*args, _attempt=0, **kwargs):  # the wrapper, enqueued by itself
            try:
                return func(*args, **kwargs)
            except Exception:
                if _attempt >= attempts:
                    raise
                django_rq.get_queue("default").enqueue(wrapper, *args, _attempt=_attempt + 1, **kwargs)

        return wrapper

    return decorator


def log_errors(func):
    """A look-alike: it catches and logs, and never retries."""
    @wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except Exception:
            logger.exception("%s failed", func.__name__)

    return wrapper
