# jobcheck-test: select=JC501
"""The application's own timer: `register_timer(callback)` makes a `FlexTimer`, whose task calls the
callback and re-arms itself at the time it returns. The jobs are the callbacks its users register
(found through the types the annotations give: `config.get_server().get_event_loop()`), not the
timer's plumbing."""
from __future__ import annotations

import asyncio


class EventLoop:
    def __init__(self) -> None:
        self.aioloop = asyncio.get_event_loop()

    def register_timer(self, callback) -> FlexTimer:
        return FlexTimer(self, callback)

    def call_at(self, when, callback):
        return self.aioloop.call_at(when, callback)

    def create_task(self, coro):
        return self.aioloop.create_task(coro)


class FlexTimer:
    def __init__(self, eventloop: EventLoop, callback) -> None:
        self.eventloop = eventloop
        self.callback = callback
        self.running = False

    def start(self, delay: float = 0.0) -> None:
        self.running = True
        self.eventloop.call_at(delay, self._schedule_task)

    def _schedule_task(self) -> None:
        self.eventloop.create_task(self._call_wrapper())

    async def _call_wrapper(self) -> None:
        ret = self.callback(0.0)
        if self.running:
            self.eventloop.call_at(ret, self._schedule_task)
