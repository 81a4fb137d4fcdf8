# jobcheck-test: select=JC202
"""Retry options from the application's settings helper: a Django setting's value is the
deployment's, so what runs unless it is set is the default the helper is given
(`getattr(settings, name, default)`); a module of the application that sets the name is read."""
import requests
from celery import shared_task

from django.conf import settings

from .settings import BOUNDED_OPTIONS, CONFIGURED_OPTIONS, REEXPORTED_OPTIONS, RETRY_OPTIONS


class WriteError(Exception):
    pass


@shared_task(bind=True, autoretry_for=(WriteError,), **RETRY_OPTIONS)  # expect: JC202
def timeseries_write(self, name, values):
    response = requests.post("https://tsdb.example/write", json={"name": name, "values": values})
    if response.status_code >= 500:
        raise WriteError(response.text)


@shared_task(bind=True, autoretry_for=(WriteError,), **BOUNDED_OPTIONS)
def bounded_write(self, name, values):
    response = requests.post("https://tsdb.example/write", json={"name": name, "values": values})
    if response.status_code >= 500:
        raise WriteError(response.text)


@shared_task(bind=True, autoretry_for=(WriteError,), **CONFIGURED_OPTIONS)
def configured_write(self, name, values):
    """The application's configuration module sets the options: its limit, not the default."""
    response = requests.post("https://tsdb.example/write", json={"name": name, "values": values})
    if response.status_code >= 500:
        raise WriteError(response.text)


@shared_task(bind=True, autoretry_for=(WriteError,), **REEXPORTED_OPTIONS)
def reexported_write(self, name, values):
    """The module re-exports the name from another, which a file checked alone may not load: not
    read, so the default is not assumed."""
    response = requests.post("https://tsdb.example/write", json={"name": name, "values": values})
    if response.status_code >= 500:
        raise WriteError(response.text)


@shared_task(bind=True, autoretry_for=(WriteError,), max_retries=getattr(settings, "MONITOR_SYNC_RETRIES", None))
def direct_write(self, name, values):
    """A setting read where it is used is the deployment's: as written, not its default."""
    response = requests.post("https://tsdb.example/write", json={"name": name, "values": values})
    if response.status_code >= 500:
        raise WriteError(response.text)
