# jobcheck-test: select=JC201,JC501
# Dramatiq actors made by calling `dramatiq.actor(...)` rather than decorating: on a function, or
# on a callable instance whose `__call__` runs the body (a base class's `__call__` running the
# subclass's `run` is the template: the job is the subclass's `run`). The defaults are the
# decorator's: 20 retries with backoff unless `max_retries=0`. A scheduler may send the actor.
import asyncio

import dramatiq
import requests
from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.cron import CronTrigger


class TaskBase:
    def __init__(self, timeout=10):
        self.timeout = timeout

    def __call__(self, *args, **kwargs):
        with asyncio.Runner() as runner:
            return runner.run(self.run(*args, **kwargs))

    def helper(self):
        return self.timeout


class SendWelcome(TaskBase):
    async def run(self, address):  # expect: JC501
        requests.post("https://mail.example/send", json={"to": address})  # expect: JC201


class PurgeExpired(TaskBase):
    async def run(self):  # expect: JC501
        print("purged")


class Notify(TaskBase):
    async def run(self, url):  # expect: JC501
        requests.post(url, json={})


class Ping:
    def __call__(self, host):  # expect: JC501
        requests.post(f"https://{host}/ping")  # expect: JC201


def count_words(url):  # expect: JC501
    print(len(requests.get(url).text.split()))


class NeverSent(TaskBase):
    """Constructed, but never made an actor: not a job."""

    async def run(self):
        requests.post("https://audit.example/", json={})


send_welcome = dramatiq.actor(SendWelcome())
purge_expired = dramatiq.actor(PurgeExpired(), actor_name="purge_expired")
notify = dramatiq.actor(Notify(), max_retries=0)
ping = dramatiq.actor(Ping(), queue_name="pings")
count = dramatiq.actor(count_words)
idle = NeverSent()


def schedule():
    scheduler = BlockingScheduler()
    scheduler.add_job(purge_expired.send, CronTrigger.from_crontab("0 0 * * *"))
    scheduler.start()
