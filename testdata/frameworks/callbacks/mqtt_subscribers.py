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

    def subscribe_parsed(self, topic, parse, callback):
        self.client.message_callback_add(topic, partial(self._parse_message, parse, callback=callback))

    def subscribe_unbound(self, topic, callback):
        self.client.message_callback_add(topic, partial(Subscriber._deliver, self, callback))

    @staticmethod
    def _handle_message(message_class, callback, client, userdata, msg):  # expect: JC501
        callback(message_class.load(msg.payload))

    @staticmethod
    def _log_message(on_log, client, userdata, msg):  # expect: JC501
        print(on_log, msg.payload)  # given `on_log`, and does not call it

    @staticmethod
    def _parse_message(parse, client, userdata, msg, callback=None):  # expect: JC501
        callback(parse(msg.payload))  # `parse` is a step; the message is handed to `callback`

    def _deliver(self, callback, client, userdata, msg):  # expect: JC501
        callback(msg.payload)


class Results:
    def __init__(self, subscriber: Subscriber):
        subscriber.subscribe("scanner/results", dict, self.result_handler)
        subscriber.subscribe_raw("scanner/log", self.log_line)
        subscriber.subscribe_parsed("scanner/hosts", self.parse_hosts, self.host_handler)
        subscriber.subscribe_unbound("scanner/status", self.status_handler)

    def result_handler(self, message):  # expect: JC501
        requests.post("https://reports.example/results", json=message)

    def log_line(self, message):
        requests.post("https://reports.example/log", json=message)

    def parse_hosts(self, payload):
        return requests.get("https://reports.example/hosts", params={"q": payload}).json()

    def host_handler(self, hosts):  # expect: JC501
        requests.post("https://reports.example/hosts", json=hosts)

    def status_handler(self, status):  # expect: JC501
        requests.post("https://reports.example/status", json=status)
