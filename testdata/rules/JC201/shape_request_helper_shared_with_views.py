# jobcheck-test: select=JC201
# A request helper with a retry loop of its own, which the periodic poll calls with GET and a
# view (a person's click, not a job) calls with POST: as the jobs call it, it reads. When a job
# posts through it too, the retry repeats that POST.
import time

import httpx
from apscheduler.schedulers.background import BackgroundScheduler


class Requester:
    def request(self, method, url, **kwargs):
        while True:
            try:
                response = httpx.request(method, url, timeout=10, **kwargs)
                response.raise_for_status()
                return response
            except httpx.TransportError:
                time.sleep(1)


requester = Requester()


def poll_tasks():
    return requester.request(method="GET", url="https://api.example.com/tasks")


def on_submit_clicked(question):
    return requester.request("POST", "https://api.example.com/chat", json={"q": question})


scheduler = BackgroundScheduler()
scheduler.add_job(poll_tasks, "interval", seconds=30)


class Sender:
    def request(self, method, url, **kwargs):
        while True:
            try:
                return httpx.request(method, url, timeout=10, **kwargs)  # expect: JC201
            except httpx.TransportError:
                time.sleep(1)


sender = Sender()


def fetch_reports():
    return sender.request("GET", "https://api.example.com/reports")


def push_reports():
    return sender.request("POST", "https://api.example.com/reports", json={})


scheduler.add_job(fetch_reports, "interval", seconds=30)
scheduler.add_job(push_reports, "interval", seconds=60)
