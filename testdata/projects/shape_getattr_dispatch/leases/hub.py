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
