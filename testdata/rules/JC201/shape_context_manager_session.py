"""A client from the application's own context manager (`@contextmanager` yielding a
`requests.Session()`): `with delivery_session() as session:` holds what it yields."""

import contextlib
from contextlib import contextmanager

import requests
from celery import shared_task


def make_session():
    session = requests.Session()
    session.headers.update({"User-Agent": "hooks/1.0"})
    return session


@contextmanager
def delivery_session():
    session = make_session()
    try:
        yield session
    finally:
        session.close()


@contextlib.contextmanager
def plain_session():
    yield requests.Session()


@shared_task(autoretry_for=(requests.RequestException,), max_retries=3)
def deliver(url, payload):
    with delivery_session() as session:
        session.post(url, json=payload, timeout=10)  # expect: JC201


@shared_task(autoretry_for=(requests.RequestException,), max_retries=3)
def deliver_plain(url, payload):
    with plain_session() as session:
        session.post(url, json=payload, timeout=10)  # expect: JC201


@shared_task(autoretry_for=(requests.RequestException,), max_retries=3)
def poll(url):
    with delivery_session() as session:
        return session.get(url, timeout=10).json()
