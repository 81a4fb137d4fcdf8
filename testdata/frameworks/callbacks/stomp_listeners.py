# jobcheck-test: select=JC501
# stomp.py calls the `on_message` of the listener object a connection is given, for every message:
# that method is a consumer, whether the connection's type is known or not (a loop over the
# connections made in a module that uses stomp).
import requests
import stomp


class TransferListener:
    def __init__(self, broker):
        self.broker = broker

    def on_message(self, frame):  # expect: JC501
        requests.post("https://transfers.example/done", data=frame.body)

    def on_error(self, frame):
        pass


class Base:
    def on_message(self, frame):  # expect: JC501
        requests.post("https://traces.example/traces", data=frame.body)


class TraceListener(Base):
    pass


class NotAListener:
    def on_message(self, frame):  # given to no connection
        requests.post("https://elsewhere.example", data=frame.body)


def receive(brokers):
    conn = stomp.Connection12(host_and_ports=[(brokers[0], 61613)])
    conn.set_listener("transfers", TransferListener(brokers[0]))
    conns = [stomp.Connection12(host_and_ports=[(b, 61613)]) for b in brokers]
    for c in conns:
        c.set_listener("traces", TraceListener())
        c.connect(wait=True)


class AuditListener(stomp.ConnectionListener):  # a subclass of stomp's listener: its on_message runs per message
    def on_message(self, frame):  # expect: JC501
        requests.post("https://audit.example/events", data=frame.body)

    def on_connected(self, frame):
        pass
