# jobcheck-test: select=JC201
# A library's retry helper, called with the function it runs again and a count
# (`backoff(fn, retry_on=..., max_retries=5)`, `proxy_with_retry(name, lambda: fn(), max_retries=...)`):
# the function is retried, and an effect it makes with no guard is repeated. Clean look-alikes: a
# read handed to the same helper, a helper named for retrying given no count (what it does is not
# known), and a library call with a count that is named for nothing of the kind.
import requests
from agentlib.retry import backoff, proxy_with_retry, retry_later
from agentlib.tasks import schedule_many
from celery import shared_task


def register_task_definition(family, spec):
    requests.post("https://ecs.example/task-definitions", json={"family": family, **spec})  # expect: JC201


def subscribe(topic):
    requests.post("https://broker.example/subscriptions", json={"topic": topic})  # expect: JC201


def describe_task_definition(family):
    return requests.get(f"https://ecs.example/task-definitions/{family}").json()


def announce(topic):
    requests.post("https://broker.example/announcements", json={"topic": topic})


def cleanup(topic):
    requests.post("https://broker.example/cleanup", json={"topic": topic})


@shared_task
def deploy(family, spec, topic, retry_limit):
    backoff(register_task_definition, retry_on=(Exception,), max_retries=5, kwargs={"family": family, "spec": spec})
    proxy_with_retry("subscribe", lambda: subscribe(topic), max_retries=retry_limit,
                     retryable_exceptions=(ConnectionError,))
    backoff(describe_task_definition, retry_on=(Exception,), max_retries=5)
    retry_later(announce, topic)
    schedule_many(cleanup, topic, max_attempts=3)
