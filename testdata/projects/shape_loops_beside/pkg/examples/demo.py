# jobcheck-test: select=JC501
import time

import requests


def demo_loop():
    while True:
        requests.post("https://demo.example/tick")
        time.sleep(1)
