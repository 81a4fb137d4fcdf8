# jobcheck-test: select=JC201
# pika's publisher confirms: a message the broker returned as unroutable or nacked was not taken,
# so publishing it again repeats nothing. A publish retried on a dropped connection may have landed.
import time

import pika
from pika.exceptions import AMQPConnectionError, NackError, UnroutableError


def send_bundle(channel, body):
    while True:
        try:
            channel.basic_publish(exchange="push", routing_key="bundles", body=body,
                                  properties=pika.BasicProperties(delivery_mode=2))  # (an argument: made before)
            return
        except (UnroutableError, NackError):
            time.sleep(10)


def send_event(channel, body):
    for _ in range(3):
        try:
            channel.basic_publish(exchange="push", routing_key="events", body=body)  # expect: JC201
            return
        except AMQPConnectionError:
            time.sleep(10)


def main():
    channel = pika.BlockingConnection(pika.ConnectionParameters("localhost")).channel()
    channel.confirm_delivery()
    send_bundle(channel, b"{}")
    send_event(channel, b"{}")
