# jobcheck-test: select=JC501
# Consumers a Fedora Messaging configuration beside the code names (`callback = "module:attr"` at
# its top level, in `badges.toml.example`): an instance of the class is called with each message.
# What a `callback` inside a table names is not the consumer.
import requests


class Awarder:
    def __init__(self):
        self.session = requests.Session()

    def __call__(self, message):  # expect: JC501
        self.session.post("https://badges.example/award", json={"user": message.body["user"]})


def not_the_consumer(message):
    requests.post("https://badges.example/other", json=message.body)
