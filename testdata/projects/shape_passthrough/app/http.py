import requests


def post(*args, **kwargs):
    """Passes everything to a session's `post`: a call of it is an HTTP POST."""
    return requests.Session().post(*args, **kwargs)
