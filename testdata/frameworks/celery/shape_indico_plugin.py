# jobcheck-test: select=JC201,JC501
# Indico plugins declare tasks on Indico's app (`indico.core.celery.celery`, not read here):
# `@celery.periodic_task(run_every=..., plugin=...)` adds a beat entry; `@celery.task` a task.
import requests
from celery.schedules import crontab
from indico.core.celery import celery


@celery.periodic_task(run_every=crontab(minute="*/15"), plugin="feeds")
def refresh_feeds():  # expect: JC501
    requests.get("https://feeds.example/events.ics")


@celery.task(plugin="feeds", autoretry_for=(requests.RequestException,), max_retries=5, retry_backoff=True)
def push_event(event_id):  # expect: JC501
    requests.post("https://calendar.example/events", json={"id": event_id})  # expect: JC201


def render_feed(events):
    """Called while a request is served: not a job."""
    return requests.post("https://render.example/ics", json=events)
