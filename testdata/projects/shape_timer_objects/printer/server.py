# jobcheck-test: select=JC501
from __future__ import annotations

from .eventloop import EventLoop


class Server:
    def __init__(self) -> None:
        self.event_loop = EventLoop()

    def get_event_loop(self) -> EventLoop:
        return self.event_loop
