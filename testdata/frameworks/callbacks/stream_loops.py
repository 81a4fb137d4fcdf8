# jobcheck-test: select=JC501
# A loop over a message stream waits for each message and runs until stopped: a consumer's, a
# subscriber's or a receiver's (`for message in self._consumer:`, `KafkaConsumer(topic)`, a
# Service Bus queue's `get_queue_receiver(name)`), a pub/sub's `listen()`,
# a channel's `consume(queue)`, a queue's async `iterator()` (aio-pika's, also opened with `async
# with queue.iterator() as it`); so does a loop taking the next item with a blocking pop
# (`rc.blpop([...])`, a stream's `xread(..., block=...)`) or waiting on a broker connection for the
# next message (kombu's `drain_events(timeout=1)`), or in a helper named for listening that takes a
# pub/sub's next message, told how long to wait (`pubsub.get_message(timeout=1.0)`). A loop over a list of consumers or
# subscriptions walks it once; a non-blocking `lpop` in a loop drains the list and stops, and a
# queryset's `iterator()` walks the rows there are.
import redis
import requests
from aio_pika.abc import AbstractQueue
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


class QueueWorker:
    async def consume(self, queue: AbstractQueue, stop):  # expect: JC501
        async with queue.iterator() as queue_iter:
            async for message in queue_iter:
                if stop.is_set():
                    break
                requests.post("https://erp.example/invoices", data=message.body)
                await message.ack()


async def forward_orders(queue):  # expect: JC501
    async for message in queue.iterator():
        requests.post("https://erp.example/orders", data=message.body)


def export_rows(rows):
    for row in rows.iterator():
        requests.post("https://warehouse.example/rows", json=row)


async def export_results(results):
    async for result in results.iterator():
        requests.post("https://warehouse.example/results", json=result)


class Parent:
    def __init__(self, rc):
        self._pubsub = rc.pubsub()
        self._stop_processing = False

    def _listen_for_broadcast(self):
        try:
            msg = self._pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
        except ConnectionError:
            return
        if msg:
            requests.post("https://workers.example/broadcast", data=msg["data"])

    def _refork_missing(self):
        requests.post("https://workers.example/refork")

    def run(self):  # expect: JC501
        while not self._stop_processing:
            self._refork_missing()
            self._listen_for_broadcast()

    def check_once(self):
        self._pubsub.get_message(timeout=0.5)


def notify_all(subscriptions):
    for subscription in subscriptions:
        requests.post(subscription.url, json={"ping": True})


if __name__ == "__main__":
    Persister("metrics").run()
    LogHandler(redis.Redis).run()
    EventWatcher(None).run()
    export_rows(None)
    Parent(redis.Redis()).run()
