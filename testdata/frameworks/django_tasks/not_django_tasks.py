# jobcheck-test: select=JC201,JC501,JC502
# Decorators called `task` that are not Django's: invoke's command-line tasks, an application's
# own decorator, and a method named `task` on an object. None of these is a background job.
import requests
from django.core.mail import send_mail
from invoke import task


@task
def deploy(c):
    c.run("git push production")
    requests.post("https://chat.example/hooks", json={"text": "deployed"})


def local_task(fn):
    return fn


@local_task
def tidy():
    send_mail("Tidy", "done", "ops@example.com", ["ops@example.com"])


class Planner:
    def task(self, fn):
        return fn


planner = Planner()


@planner.task
def plan_week():
    requests.post("https://calendar.example/plans", json={})


def not_enqueued(queue):
    queue.enqueue(plan_week)
