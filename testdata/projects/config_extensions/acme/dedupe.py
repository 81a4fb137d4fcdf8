"""A guard of the application's own: configured in pyproject.toml."""


def once(key):
    return True
