# jobcheck-test: select=JC201,JC202,JC203,JC501
"""Retry decorators that call their wrapper again from the except clause: one counts down and
re-raises when the count runs out, the other never stops."""
import time
from functools import wraps


class TemporaryError(Exception):
    pass


def retrier(_func=None, *, retries=4):
    def decorator(f):
        @wraps(f)
        def wrapper(*args, **kwargs):
            count = kwargs.pop("count", retries)
            try:
                return f(*args, **kwargs)
            except TemporaryError:
                if count > 0:
                    count -= 1
                    kwargs.update({"count": count})
                    return wrapper(*args, **kwargs)
                raise

        return wrapper

    if _func is None:
        return decorator
    return decorator(_func)


def forever(f):
    @wraps(f)
    def wrapper(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except TemporaryError:
            time.sleep(1)
            return wrapper(*args, **kwargs)

    return wrapper


def tolerant(visit):
    """A tree walker calling itself on the children: no retry."""

    def walk(node):
        try:
            return [visit(node)]
        except NotImplementedError:
            return [x for child in node.children for x in walk(child)]

    return walk


def patient(f):
    """Counts down in a keyword of its own and gives up by returning: bounded."""

    def wrapper(*args, _left=3, **kwargs):
        try:
            return f(*args, **kwargs)
        except TemporaryError:
            if _left <= 0:
                return None
            return wrapper(*args, _left=_left - 1, **kwargs)

    return wrapper


def throttled(f):
    """Waits before every call, the first and each again: not retried at once."""

    def wrapper(*args, _left=3, **kwargs):
        time.sleep(5)
        try:
            return f(*args, **kwargs)
        except TemporaryError:
            if _left <= 0:
                raise
            return wrapper(*args, _left=_left - 1, **kwargs)

    return wrapper
