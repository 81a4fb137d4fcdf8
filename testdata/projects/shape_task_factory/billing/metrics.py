import contextlib


@contextlib.contextmanager
def timer(name, **tags):
    yield


def count(name):
    print(name)
