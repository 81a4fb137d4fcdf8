# jobcheck-test: select=JC201,JC501
# A dispatch table the instance holds (`self.query_handlers = {...}` in `__init__`): a consumer
# that looks its handler up there runs each handler the table holds, as part of its own work.
import requests
from zmq.eventloop.zmqstream import ZMQStream


class Hub:
    def __init__(self, socket):
        self.query = ZMQStream(socket)
        self.query_handlers = {
            "resubmit_request": self.resubmit_task,
            "purge_request": self.purge_results,
        }
        self.query.on_recv(self.dispatch_query)

    def dispatch_query(self, msg):  # expect: JC501
        handler = self.query_handlers.get(msg["msg_type"])
        if handler is not None:
            handler(msg)

    def resubmit_task(self, msg):  # expect: JC501
        requests.post("https://engines.example/tasks", json=msg)

    def purge_results(self, msg):  # expect: JC501
        requests.delete("https://results.example/all")

    def not_in_the_table(self, msg):
        requests.post("https://engines.example/other", json=msg)


class Router:
    def __init__(self):
        self.handlers = {"ping": self.pong}
        self.stream = ZMQStream(None)
        self.stream.on_recv(self.route)

    def route(self, msg):  # expect: JC501
        self.handlers[msg["type"]](msg)  # the subscript form of the instance's table

    def pong(self, msg):  # expect: JC501
        requests.post("https://peer.example/pong", json=msg)


class Backup:
    def __init__(self):
        self.backends = [S3Backend(), GCSBackend()]
        self.stream = ZMQStream(None)
        self.stream.on_recv(self.run)

    def run(self, path):  # expect: JC501
        for backend in self.backends:  # the same call on each element: a helper of this job, no job
            backend.upload(path)


class S3Backend:
    def upload(self, path):
        requests.put("https://s3.example/b", data=path)


class GCSBackend:
    def upload(self, path):
        requests.put("https://gcs.example/b", data=path)
