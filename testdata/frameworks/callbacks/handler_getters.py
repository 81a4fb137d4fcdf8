# jobcheck-test: select=JC501
# A worker asks a helper which handler a task needs (`handler = _handler_for(task)`), the helper
# naming one function in each arm, then calls it: each is a unit of the job's work, listed as
# dispatched beside the loop.
import time

import requests


def _handle_download(task):
    requests.post("https://media.example/download", json=task)


def _handle_training(task):
    requests.post("https://models.example/train", json=task)


def _handler_for(task):
    if task["type"] == "training":
        return _handle_training
    return _handle_download


def process(task):
    handler = _handler_for(task)
    handler(task)


def poll_loop(client):  # expect: JC501
    while True:
        task = client.claim()
        if task:
            process(task)
        else:
            time.sleep(5)


if __name__ == "__main__":
    poll_loop(None)
