# jobcheck-test: select=JC501
# pyzmq: a stream's `on_recv` callback runs for each message received (a consumer), also where the
# stream is a traitlets `Instance(ZMQStream)` attribute; registered in a base class as a method
# that raises NotImplementedError, what runs is each subclass's implementation.
import requests
from traitlets import Instance
from traitlets.config import LoggingConfigurable
from zmq.eventloop.zmqstream import ZMQStream


class Scheduler(LoggingConfigurable):
    engine_stream = Instance(ZMQStream)
    client_stream = Instance(ZMQStream)

    def start(self):
        self.engine_stream.on_recv(self.dispatch_result)
        self.client_stream.on_recv_stream(self.dispatch_submission)

    def dispatch_result(self, raw_msg):
        raise NotImplementedError("Implement in subclasses")

    def dispatch_submission(self, stream, raw_msg):
        raise NotImplementedError("Implement in subclasses")


class TaskScheduler(Scheduler):
    def dispatch_result(self, raw_msg):  # expect: JC501
        requests.post("https://hub.example/results", data=raw_msg)

    def dispatch_submission(self, stream, raw_msg):  # expect: JC501
        requests.post("https://hub.example/tasks", data=raw_msg)


class Monitor:
    def __init__(self, socket):
        self.stream = ZMQStream(socket)
        self.stream.on_recv(self.handle_pong)

    def handle_pong(self, msg):  # expect: JC501
        print("pong", msg)


def make_scheduler():
    return TaskScheduler()


class Handler:
    def handle(self, msg):
        raise NotImplementedError


class StreamConsumer(Handler):
    def __init__(self, socket):
        self.stream = ZMQStream(socket)
        self.stream.on_recv(self.handle)


class OrderConsumer(StreamConsumer):
    def handle(self, msg):  # expect: JC501
        requests.post("https://orders.example/", data=msg)


class WebHandler(Handler):  # a sibling the stream never runs: called in a request
    def handle(self, msg):
        requests.post("https://web.example/", data=msg)


def make_consumer(socket):
    return OrderConsumer(socket)


def view(request):
    return WebHandler().handle(request)
