# jobcheck-test: select=JC501
"""Vendored code, examples and docs are beside the application: their loops are no jobs of it."""
import time

import requests


def poll_forever(url):
    while True:
        requests.get(url)
        time.sleep(5)
