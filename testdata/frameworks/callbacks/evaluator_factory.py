# jobcheck-test: select=JC501
# A worker's round asks a factory for an evaluator (a subclass chosen by the message) and calls
# it: the object's `__call__` runs the step its subclasses implement (`self.handle()`), so each
# subclass's `handle` is a unit of the job's work, listed as dispatched beside the loop.
import time

import requests


class Evaluator:
    def __init__(self, message):
        self.message = message

    def __call__(self):
        self.handle()
        requests.post("https://bus.example/complete", json={"id": self.message["id"]})

    def handle(self):
        raise NotImplementedError


class StoringEvaluator(Evaluator):
    def handle(self):
        requests.post("https://results.example/store", json=self.message)


class PlainEvaluator(Evaluator):
    def handle(self):
        requests.post("https://tasks.example/run", json=self.message)


def evaluator_factory(message) -> Evaluator:
    if message.get("store"):
        return StoringEvaluator(message)
    return PlainEvaluator(message)


def receive_loop(receiver):  # expect: JC501
    while True:
        message = receiver.receive()
        if message is None:
            time.sleep(5)
            continue
        evaluator = evaluator_factory(message)
        evaluator()


if __name__ == "__main__":
    receive_loop(None)
