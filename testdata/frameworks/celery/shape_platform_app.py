# jobcheck-test: select=JC201,JC501
# Plugins declare tasks on their platform's Celery app, which is not read here, imported from the
# module Celery's documentation names for it (`proj/celery.py`): pretalx's and pretix's
# `celery_app.app`, Indico's `indico.core.celery.celery` (`@celery.periodic_task(run_every=...)`
# adds a beat entry). An object of another module with a `task` method is not a Celery app: its
# tasks are an unknown library's (`library_decorators`), with no retry settings read.
import requests
from celery.schedules import crontab
from indico.core.celery import celery
from pretalx.celery_app import app
from shop.registry import registry


@celery.periodic_task(run_every=crontab(minute="*/15"), plugin="feeds")
def refresh_feeds():  # expect: JC501
    requests.get("https://feeds.example/events.ics")


@celery.task(plugin="feeds", autoretry_for=(requests.RequestException,), max_retries=5, retry_backoff=True)
def push_event(event_id):  # expect: JC501
    requests.post("https://calendar.example/events", json={"id": event_id})  # expect: JC201


@app.task(name="talks.export")
def export_talks(event_slug):  # expect: JC501
    requests.put(f"https://cdn.example/{event_slug}/talks.json")


@registry.task
def register_widget(widget):  # expect: JC501
    requests.post("https://widgets.example/register", json=widget)


def render_feed(events):
    """Called while a request is served: not a job."""
    return requests.post("https://render.example/ics", json=events)
