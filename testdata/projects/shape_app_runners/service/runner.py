# jobcheck-test: select=JC501
"""The service's own task runners: they repeat the callable they are given until stopped."""
import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable

logger = logging.getLogger(__name__)


class Settings:
    running = True


settings = Settings()


async def restart_on_error(func: Callable[[], Awaitable[None]]):
    """Runs `func` once, restarting it after a crash: a retry helper, not a loop of its own."""
    while settings.running:
        try:
            return await func()
        except Exception:
            logger.exception("restarting %s", func)
            await asyncio.sleep(5)


def create_permanent_task(func: Callable[[], Awaitable[None]], interval: int = 0):
    async def wrapper():
        while settings.running:
            await restart_on_error(func)
            if interval:
                await asyncio.sleep(interval)

    return asyncio.create_task(wrapper())


def supervise(target, stop):
    while not stop.is_set():
        try:
            target()
        except Exception:
            logger.exception("crashed")
        if stop.wait(1):
            break


def start_supervised(target, stop):
    thread = threading.Thread(target=supervise, args=(target, stop), daemon=True)
    thread.start()
    return thread


def call_with_retries(fn, attempts=3):
    """Calls `fn` until it succeeds: runs it once, so what it is given is not periodic."""
    while True:
        try:
            return fn()
        except OSError:
            attempts -= 1
            if not attempts:
                raise
            time.sleep(1)


_hooks = []


def register(fn):
    _hooks.append(fn)


def wait_until(ready, interval=1):
    """Polls a condition until it holds: the condition is not periodic work."""
    while True:
        if ready():
            return
        time.sleep(interval)
