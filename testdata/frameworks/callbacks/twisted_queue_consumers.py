# jobcheck-test: select=JC501
# Twisted's queue consumer: a callback added to the Deferred of `get()` on a queue the object
# holds (a `DeferredQueue`, txAMQP's queue) runs on the next message, and re-arms itself for the
# one after. A Deferred a library call returns (`treq.get(url)`, a Redis client's `get(key)`, a
# client's `get(url)`) is a response, not a queue.
import treq
import txredisapi
from twisted.internet import defer


class SubmitListener:
    def __init__(self):
        self.submit_q = defer.DeferredQueue()

    def set_queue(self, queue):
        self.submit_q = queue
        self.submit_q.get().addCallback(self.on_submit)

    def on_submit(self, message):  # expect: JC501
        self.submit_q.get().addCallback(self.on_submit)
        return treq.post("https://smsc.example/submit", data=message.content.body)


class Poller:
    def poll(self, url):
        return treq.get(url).addCallback(self.on_response)

    def on_response(self, response):
        return response.code


class Crawler:
    def __init__(self, client):
        self.client = client
        self.redis = txredisapi.lazyConnectionPool()

    def crawl(self, url):
        self.client.get(url).addCallback(self.parse)
        self.redis.get("last:" + url).addCallback(self.on_cached)

    def parse(self, response):
        return response

    def on_cached(self, value):
        return value


class Router(defer.Deferred):
    """A class on a library base: the queue attribute it sets from a yield has no known type."""

    @defer.inlineCallbacks
    def bind(self, broker, tag):
        self.deliver_q = yield broker.queue(tag)
        self.deliver_q.get().addCallback(self.on_deliver)

    def on_deliver(self, message):  # expect: JC501
        self.deliver_q.get().addCallback(self.on_deliver)
        return treq.post("https://smsc.example/deliver", data=message.content.body)
