# A compatibility module: the library's objects when it is installed, shims otherwise. Other
# modules import them from here.
import requests
try:
    from celery import shared_task
except ImportError:
    def shared_task(*args, **kwargs):
        def wrap(func):
            return func
        return wrap

try:
    from celery import Celery
except ImportError:
    class Celery:
        def __init__(self, name):
            self.name = name

        def task(self, *args, **kwargs):
            return lambda func: func



def post_plain(payload):
    requests.post("https://erp.example/exports", json=payload)


try:
    from fasthttp_client import post_json
except ImportError:
    post_json = post_plain  # a fallback also used under its own name: `post_plain` stays
