# jobcheck-test: select=JC501
# Flask-APScheduler: `@scheduler.task(trigger, id=...)` and `scheduler.add_job(id, func, ...)`
# on its APScheduler wrapper.
import requests
from flask import Flask
from flask_apscheduler import APScheduler

app = Flask(__name__)
scheduler = APScheduler()
scheduler.init_app(app)


@scheduler.task("interval", id="sync_rates", minutes=15)
def sync_rates():  # expect: JC501
    requests.post("https://rates.example/sync")


def purge_sessions():  # expect: JC501
    requests.delete("https://sessions.example/expired")


def build_report():  # expect: JC501
    requests.post("https://reports.example/build")


def not_scheduled():
    requests.post("https://example.com")


scheduler.add_job("purge", purge_sessions, trigger="cron", hour=3)
scheduler.add_job(id="report", func=build_report, trigger="interval", hours=1)
scheduler.start()

from apscheduler.schedulers.background import BackgroundScheduler  # noqa: E402


def send_report():  # expect: JC501
    requests.post("https://reports.example/send")


plain = BackgroundScheduler()
plain.add_job("flask_apscheduler:send_report", "interval", minutes=5)  # APScheduler's own: a text reference first
