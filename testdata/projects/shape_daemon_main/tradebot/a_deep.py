# jobcheck-test: select=JC501
"""Its round waits four calls down: past the three calls jobcheck follows, so not a job."""
import threading

import requests

from tradebot.waits import rest


def deep_loop():
    while True:
        requests.post("https://deep.example/")
        rest()


def start_deep():
    threading.Thread(target=deep_loop, daemon=True).start()
