# jobcheck-test: select=JC501
# A loop over a message stream waits for each message and runs until stopped: a consumer's, a
# subscriber's or a receiver's (`for message in self._consumer:`, `KafkaConsumer(topic)`, a
# Service Bus queue's `get_queue_receiver(name)`), a pub/sub's `listen()`,
# a channel's `consume(queue)`; so does a loop taking the next item with a blocking pop
# (`rc.blpop([...])`, a stream's `xread(..., block=...)`) or waiting on a broker connection for the
# next message (kombu's `drain_events(timeout=1)`). A loop over a list of consumers or
# subscriptions walks it once; a non-blocking `lpop` in a loop drains the list and stops.
import redis
import requests
from kafka import KafkaConsumer


class Persister:
    def __init__(self, topic):
        self._consumer = KafkaConsumer(topic)
        self._rows = []

    def run(self):  # expect: JC501
        for message in self._consumer:
            self._rows.append(message.value)
            if len(self._rows) >= 100:
                requests.post("https://tsdb.example/write", json=self._rows)
                self._rows.clear()

    def reset_all(self, consumers):
        for consumer in consumers:
            consumer.seek_to_beginning()


def relay(channel):  # expect: JC501
    pubsub = redis.Redis().pubsub()
    pubsub.subscribe(channel)
    for message in pubsub.listen():
        requests.post("https://hooks.example/relay", json={"data": message["data"]})


def drain(topic):  # expect: JC501
    for record in KafkaConsumer(topic, group_id="drain"):
        requests.post("https://archive.example/records", data=record.value)


class LogHandler:
    def __init__(self, connect):
        self.rc = connect()

    def run(self):  # expect: JC501
        while True:
            _, raw = self.rc.blpop(["log-fifo"])
            requests.post("https://logs.example/lines", data=raw)

    def drain(self):
        while True:
            raw = self.rc.lpop("log-fifo")
            if raw is None:
                return
            requests.post("https://logs.example/lines", data=raw)


def follow(stream, rc):  # expect: JC501
    last = "$"
    while True:
        for _, entries in rc.xread({stream: last}, block=5000) or ():
            for last, fields in entries:
                requests.post("https://hooks.example/entries", json=fields)


async def receive_orders(client):  # expect: JC501
    async with client.get_queue_receiver("orders") as receiver:
        async for msg in receiver:
            requests.post("https://erp.example/orders", data=str(msg))
            await receiver.complete_message(msg)


class EventWatcher:
    def __init__(self, connection):
        self.connection = connection
        self.running = True

    def run(self):  # expect: JC501
        while self.running:
            try:
                self.connection.drain_events(timeout=1.0)
            except TimeoutError:
                self.connection.heartbeat_check()
            requests.post("https://ops.example/watcher", json={"alive": True})


def notify_all(subscriptions):
    for subscription in subscriptions:
        requests.post(subscription.url, json={"ping": True})


if __name__ == "__main__":
    Persister("metrics").run()
    LogHandler(redis.Redis).run()
    EventWatcher(None).run()
