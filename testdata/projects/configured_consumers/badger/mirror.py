# jobcheck-test: select=JC501
# A function named as the consumer (`mirror.toml`): called with each message.
import requests


def on_message(message):  # expect: JC501
    requests.post("https://mirror.example/messages", json=message.body)
