# jobcheck-test: select=JC501
"""A task decorator applied by a call in the application makes a job; the same call in a test
runs the function there."""
import requests
from huey import SqliteHuey

huey = SqliteHuey("jobs")


def publish(name):  # expect: JC501
    requests.post("https://jobs.example/publish", json={"job": name})


def render(name):
    return requests.get("https://jobs.example/render", params={"job": name}).text


publish_task = huey.task(retries=0)(publish)
