# jobcheck-test: select=JC501
# Message consumers: the callback a broker client runs for every message.
import amqp
import pika
import requests
from google.cloud import pubsub_v1
from kombu import Connection, Consumer, Queue


def handle_order(channel, method, properties, body):  # expect: JC501
    requests.post("https://fulfilment.example/orders", data=body)
    channel.basic_ack(delivery_tag=method.delivery_tag)


def consume_orders():
    connection = pika.BlockingConnection(pika.ConnectionParameters("rabbit"))
    channel = connection.channel()
    channel.basic_consume(queue="orders", on_message_callback=handle_order)
    channel.start_consuming()


def on_event(message):  # expect: JC501
    requests.post("https://hooks.example/event", data=message.data)
    message.ack()


def subscribe(project):
    subscriber = pubsub_v1.SubscriberClient()
    path = subscriber.subscription_path(project, "events")
    return subscriber.subscribe(path, callback=on_event)


class Worker:
    def on_invoice(self, body, message):  # expect: JC501
        requests.post("https://billing.example/invoices", json=body)
        message.ack()

    def on_refund(self, body, message):  # expect: JC501
        requests.post("https://billing.example/refunds", json=body)
        message.ack()

    def run(self):
        with Connection("amqp://") as conn:
            with Consumer(conn, [Queue("billing")], callbacks=[self.on_invoice, self.on_refund]):
                conn.drain_events()


class AmqpWorker:
    """py-amqp: `basic_consume(..., callback=...)` on a channel typed by its annotation."""

    def _process_message(self, message):  # expect: JC501
        requests.post("https://jobs.example/run", data=message.body)
        message.channel.basic_ack(message.delivery_tag)

    def _consume(self, ch: amqp.Channel):
        ch.basic_consume(queue="jobs", consumer_tag="worker", callback=self._process_message)


def log_message(message):
    print(message)


class Bus:
    """The application's own bus: its `subscribe` is not a broker's."""

    def __init__(self):
        self.handlers = {}

    def subscribe(self, topic, callback):
        self.handlers.setdefault(topic, []).append(callback)


Bus().subscribe("debug", callback=log_message)
