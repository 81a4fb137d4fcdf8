# jobcheck-test: select=JC501
"""The application's own loop, beside the vendored and example ones, is a job."""
import time

import requests


def report_forever():  # expect: JC501
    while True:
        requests.post("https://ops.example/report")
        time.sleep(60)
