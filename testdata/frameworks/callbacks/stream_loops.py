# jobcheck-test: select=JC501
# A loop over a message stream waits for each message and runs until stopped: a consumer's or a
# subscriber's (`for message in self._consumer:`, `KafkaConsumer(topic)`), a pub/sub's `listen()`,
# a channel's `consume(queue)`. A loop over a list of consumers or subscriptions walks it once.
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


def notify_all(subscriptions):
    for subscription in subscriptions:
        requests.post(subscription.url, json={"ping": True})


if __name__ == "__main__":
    Persister("metrics").run()
