# jobcheck-test: select=JC201,JC501
"""A cog built from mixins: one mixin starts a loop that a shared abstract base declares and a
sibling mixin implements. Every class built on the starter runs that one implementation, so it is
the job. Where the classes built on the starter implement it differently, the call names none of
them; each implementation, a loop that runs until stopped, is a periodic job by its shape."""
import abc
import asyncio
import threading
import time


class MixinMeta(abc.ABC):
    @abc.abstractmethod
    async def player_timer(self):
        raise NotImplementedError()


class PlayerTasks(MixinMeta):
    async def player_timer(self):  # expect: JC501
        while True:
            await self.disconnect_idle()
            await asyncio.sleep(5)

    async def disconnect_idle(self):
        self.players.disconnect_all()


class StartUpTasks(MixinMeta):
    def initialize(self):
        self.task = asyncio.create_task(self.player_timer())


class LavalinkTasks(MixinMeta):
    """A sibling before the implementation: Python's order (C3) still finds `PlayerTasks`' method
    before the shared base's abstract one."""

    async def connect(self):
        self.node.connect()


class Audio(LavalinkTasks, PlayerTasks, StartUpTasks):
    pass


class Poller(abc.ABC):
    @abc.abstractmethod
    def poll_forever(self):
        raise NotImplementedError


class Starter(Poller):
    def start(self):
        threading.Thread(target=self.poll_forever, daemon=True).start()


class FeedPoller(Poller):
    def poll_forever(self):  # expect: JC501
        while True:
            self.fetch()
            time.sleep(60)


class MailPoller(Poller):
    def poll_forever(self):  # expect: JC501
        while True:
            self.check_inbox()
            time.sleep(60)


class Feeds(Starter, FeedPoller):
    pass


class Mail(Starter, MailPoller):
    pass
