# jobcheck-test: select=JC201,JC501
# A worker's command router: `register(kind, handler)` keeps each handler under its kind, and
# `dispatch` starts a task that awaits the chosen one, logging its failure (`_run` does no work of
# its own). Each registered handler is work started in the background, listed so; the plumbing
# is not. A handler passed straight to the same wrapper is started alike.
import asyncio
import logging

import requests

log = logging.getLogger(__name__)


class Router:
    def __init__(self):
        self._handlers = {}

    def register(self, kind, handler):
        self._handlers[kind] = handler

    def dispatch(self, message):
        handler = self._handlers.get(message["kind"])
        if handler is None:
            return
        asyncio.create_task(self._run(handler, message))

    def ping(self, message):
        asyncio.create_task(self._run(answer_ping, message))

    async def _run(self, handler, message):
        try:
            await handler(message)
        except Exception:
            log.exception("handler failed: %s", message)


class Deployer:
    async def handle_deploy(self, message):
        requests.post("https://agent.example/deploy", json=message)

    async def handle_stop(self, message):
        requests.post("https://agent.example/stop", json=message)


async def answer_ping(message):
    requests.post("https://hub.example/pong", json=message)


def wire():
    router = Router()
    deployer = Deployer()
    router.register("deploy", deployer.handle_deploy)
    router.register("stop", deployer.handle_stop)
    return router


class Leader:
    """A library's runner of what its users register: only its tests register anything here,
    so the work started is the wrapper, standing for what its users give."""

    def __init__(self):
        self._funcs = []

    def run(self, func):
        self._funcs.append(func)
        return func

    def lead(self):
        for func in self._funcs:
            asyncio.create_task(self._guarded(func))

    async def _guarded(self, func):
        try:
            await func()
        except Exception:
            log.exception("failed while leading")
