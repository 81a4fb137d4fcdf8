# Shims the application binds when the task library is not installed or not enabled.


def noop_decorator(func):
    return func


def trace(func):
    return func
