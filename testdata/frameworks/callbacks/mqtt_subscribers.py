# jobcheck-test: select=JC501
# paho-mqtt runs the callback `message_callback_add` is given for every message on the topic. A
# subscriber of the application's own that registers `partial(self._handle_message, message_class,
# callback)`, where the handler parses the message and calls the `callback` it is bound to, hands
# each message to what its callers subscribe: those callbacks are consumers too.
from functools import partial

import paho.mqtt.client as mqtt
import requests


class Subscriber:
    def __init__(self):
        self.client = mqtt.Client()

    def subscribe(self, topic, message_class, callback):
        func = partial(self._handle_message, message_class, callback)
        self.client.message_callback_add(topic, func)

    def subscribe_raw(self, topic, on_log):
        func = partial(self._log_message, on_log)
        self.client.message_callback_add(topic, func)

    @staticmethod
    def _handle_message(message_class, callback, client, userdata, msg):  # expect: JC501
        callback(message_class.load(msg.payload))

    @staticmethod
    def _log_message(on_log, client, userdata, msg):  # expect: JC501
        print(on_log, msg.payload)  # given `on_log`, and does not call it


class Results:
    def __init__(self, subscriber: Subscriber):
        subscriber.subscribe("scanner/results", dict, self.result_handler)
        subscriber.subscribe_raw("scanner/log", self.log_line)

    def result_handler(self, message):  # expect: JC501
        requests.post("https://reports.example/results", json=message)

    def log_line(self, message):
        requests.post("https://reports.example/log", json=message)
