import requests

from .bus import EventBus, Toolbar


class Mailer:
    def __init__(self, bus: EventBus):
        bus.subscribe("signup", self.send_welcome)

    def send_welcome(self, event):
        requests.post("https://mail.example/send", json={"to": event.email})

    def not_subscribed(self, event):
        requests.post("https://mail.example/other", json={"to": event.email})


class Auditor:
    def __init__(self, bus):  # no type known: `subscribe_all` is EventBus's alone
        bus.subscribe_all(self.record)

    def record(self, event):
        requests.post("https://audit.example/events", json={"kind": event.kind})


def wire(registry):
    registry.subscribe("signup", on_either)  # EventBus's or Registry's `subscribe`: not known


def on_either(event):
    requests.post("https://either.example/events", json={"kind": event.kind})


def build_window():
    bar = Toolbar()
    bar.add_listener(on_click)


def on_click():
    requests.post("https://ui.example/clicked")


def main():
    bus = EventBus()
    Mailer(bus)
    Auditor(bus)
    bus.start()
