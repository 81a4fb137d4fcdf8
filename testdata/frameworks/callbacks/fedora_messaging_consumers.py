# jobcheck-test: select=JC501
# Fedora Messaging: `api.consume(callback)` and `api.twisted_consume(callback)` call the callback
# (a function, or an instance whose `__call__` takes the message) for each message on the queues.
# A function only named beside them is no consumer.
import requests
from fedora_messaging import api


def on_build(message):  # expect: JC501
    requests.post("https://builds.example/notify", json=message.body)


class BadgeAwarder:
    def __call__(self, message):  # expect: JC501
        requests.post("https://badges.example/award", json={"user": message.body["user"]})


def log_message(message):
    print(message.topic)


def main():
    api.consume(on_build, queues={"builds": {"durable": True}})


def serve():
    api.twisted_consume(BadgeAwarder(), queues={"badges": {"durable": True}})
