# jobcheck-test: select=JC501
"""Its round waits two calls down (the same helpers as a_deep.py, read first, reach deeper):
a job, whatever order the modules are read in."""
import threading

import requests

from tradebot.waits import settle


def shallow_loop():  # expect: JC501
    while True:
        requests.post("https://shallow.example/")
        settle()


def start_shallow():
    threading.Thread(target=shallow_loop, daemon=True).start()
