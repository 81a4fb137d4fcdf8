# jobcheck-test: select=JC501
# Decorators of libraries jobcheck has no module for, named for making jobs: what they decorate is
# run by that library's runner. Build tools' tasks, a load test's, an agent's task definition,
# hooks around a job, a rate limit over a period and a function registered to do something else
# (`send_mail_task`: what sends a mail, in the request) are not jobs.
import smtplib

import ratelimit

import requests
from alcazaba import FastAPIScheduler, FastAPITaskQueue
from crewai.project import task as crew_task
from dcor_shared import rqjob_register
from django_rq_cron.registry import register_cron
from invoke import task
from lambda_tasks import lambda_task
from locust import HttpUser
from locust import task as load_task
from flask_security import Security
from tequio import cron_task, job, on_task_failure

queue = FastAPITaskQueue()
scheduler = FastAPIScheduler()
security = Security()


@rqjob_register(ckanext="dc_serve", queue="dcor-long", timeout=3600)
def job_generate_condensed(resource):  # expect: JC501
    requests.put("https://storage.example/condensed", data=resource)


@lambda_task()
def greet(name):  # expect: JC501
    smtplib.SMTP("localhost").sendmail("a@example.com", [name], "hello")


@queue.task(name="send-welcome-email", retries=5, backoff=10)
def send_welcome_email(user_id):  # expect: JC501
    requests.post("https://mail.example/send", json={"user": user_id})


@scheduler.every(hours=1, name="end-trials")
def end_trials():  # expect: JC501
    requests.post("https://billing.example/end-trials")


@scheduler.cron("0 8 * * mon-fri")
def signup_report():  # expect: JC501
    requests.post("https://reports.example/signups")


@register_cron(cadence="daily")
def cleanup_old_runs():  # expect: JC501
    requests.delete("https://runs.example/old")


@job(name="demo.export_notes", queue="exports")
def export_user_notes(user_id):  # expect: JC501
    requests.post("https://export.example/notes", json={"user": user_id})


@cron_task(name="demo.daily_digest")
def daily_digest():  # expect: JC501
    requests.post("https://digest.example/send")


@task
def build(c):
    c.run("python -m build")


@crew_task
def research_task():
    return {"description": "research"}


@on_task_failure
def report_failure(task_id):
    requests.post("https://alerts.example/failed", json={"task": task_id})


class Visitor(HttpUser):
    @load_task
    def browse(self):
        self.client.get("/")


@ratelimit.limits(calls=5, period=60)
def ask_model(prompt):
    return requests.post("https://llm.example/complete", json={"prompt": prompt})


@security.send_mail_task
def delay_mail(message):
    requests.post("https://queue.example/mail", json=message)
