# jobcheck-test: select=JC501
# A timer or a pool handed a callable that calls the next argument (`reactor.callInThread`,
# `threads.deferToThread`, a context's `run`) runs that argument: `LoopingCall(reactor.callInThread,
# self.reload)` repeats `reload` in a thread, `pool.submit(copy_context().run, self.fetch, key)`
# starts `fetch` once in the background. A submit whose result is waited for is part of its caller.
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context

import requests
from twisted.internet import reactor, task


class Consumer:
    def __init__(self):
        self.pool = ThreadPoolExecutor(4)

    def setup(self):
        task.LoopingCall(reactor.callInThread, self.reload_rules).start(900, now=True)
        self.pool.submit(copy_context().run, self.fetch_profile, "alice")

    def reload_rules(self):  # expect: JC501
        requests.get("https://rules.example/latest")

    def fetch_profile(self, name):  # started once: listed (tests/test_inventory.py), no five-questions finding
        requests.post("https://profiles.example/refresh", json={"name": name})

    def lookup(self, names):
        return [self.pool.submit(copy_context().run, self.fetch_one, name).result() for name in names]

    def fetch_one(self, name):
        return requests.get("https://profiles.example/" + name)
