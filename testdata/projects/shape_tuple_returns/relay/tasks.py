# jobcheck-test: select=JC201,JC501
# Clients taken from an item of the tuple a helper returns (`_, session = make_session()`): what
# the job then calls on them is the session's, in this module or through a method's result.
import requests
from celery import shared_task

from relay.http import Gateway, make_session


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5)
def forward(event):  # expect: JC501
    _, session = make_session()
    session.post("https://hooks.example.com/in", json=event)  # expect: JC201


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5)
def publish(event):  # expect: JC501
    Gateway("https://bus.example.com").deliver("/events", event)  # expect: JC201


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5)
async def forward_later(event):  # expect: JC501
    config, session = await fetch_session()
    config.update({"seen": True})  # the settings dict: no effect
    session.post("https://hooks.example.com/in", json=event)  # expect: JC201


async def fetch_session():
    return make_session()


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5)
def look(path):  # expect: JC501
    gateway = Gateway("https://bus.example.com")
    gateway.tune()
    return gateway.describe(path)  # a read


@shared_task(autoretry_for=(requests.RequestException,), max_retries=5)
def count(items):  # expect: JC501
    first, rest = items[0], items[1:]  # a tuple written out, not a call
    total, seen = divmod(len(rest), 2)  # a builtin's pair: nothing known
    return first, total, seen
