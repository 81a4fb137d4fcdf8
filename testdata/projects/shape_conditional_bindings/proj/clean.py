# jobcheck-test: select=JC201,JC501
# Conditional bindings that are no task framework stay quiet: a library that is not one, the
# application's own shims in every arm, and alternatives between two libraries.
import requests

from proj import settings

try:
    from functools import cache
except ImportError:  # an older Python
    def cache(func):
        return func

if settings.ENABLE_TASKS:
    from proj.noop import trace
else:
    from proj.noop import noop_decorator as trace

try:
    import simplejson as json
except ImportError:
    import json


@cache
def rates():
    return requests.post("https://fx.example/rates", json={}).json()


@trace
def helper(order_id):
    requests.post("https://erp.example/orders", data=json.dumps({"id": order_id}))
