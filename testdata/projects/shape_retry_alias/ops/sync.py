# jobcheck-test: select=JC201
import requests

from ops import retries
from ops.retries import retry_on_disconnect


@retries.retry_on_disconnect
def push_inventory(items):
    requests.post("https://inventory.example/items", json=items)  # expect: JC201


@retry_on_disconnect
def read_inventory():
    return requests.get("https://inventory.example/items")  # a read: retried safely
