# jobcheck-test: select=JC501
import requests

from tracker.queue.decorators import counted, described, plugin, shared_task


@shared_task
def send_alert(issue_id):  # expect: JC501
    requests.post("https://hooks.example/alert", json={"issue": issue_id})


@shared_task
def vacuum():  # expect: JC501
    print("vacuum")


@plugin
def render_markdown(text):
    return text


@counted
def export_csv(rows):
    return rows


@described
def summarize(rows):
    return rows


def on_new_issue(issue_id):
    send_alert.delay(issue_id)
