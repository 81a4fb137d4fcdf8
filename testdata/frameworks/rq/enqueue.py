# jobcheck-test: select=JC201,JC501
# RQ and rq-scheduler, as their documentation writes them. RQ retries only with a `Retry`, given
# on `@job` or at the enqueue call; the target may be a function, a dotted string, a bound method
# or a `partial`. Scheduled and cron targets are jobs too.
from datetime import timedelta
from functools import partial

import requests
from django.core.mail import send_mail
from redis import Redis
from rq import Queue, Retry
from rq.decorators import job
from rq_scheduler import Scheduler

redis = Redis()
queue = Queue("default", connection=redis)
scheduler = Scheduler(queue=queue, connection=redis)


@job("default", connection=redis, retry=Retry(max=3, interval=[10, 30, 60]))
def push_invoice(invoice_id):  # expect: JC501
    requests.post("https://ledger.example/invoices", json={"id": invoice_id})  # expect: JC201


def send_sms_code(phone, code):  # expect: JC501
    requests.post("https://sms.example/send", json={"to": phone, "text": code})  # expect: JC201


def send_newsletter(address):  # expect: JC501
    send_mail("News", "...", "news@example.com", [address])  # enqueued without a Retry


def rebuild_search_index():  # expect: JC501
    print("rebuilt")


def notify(channel, text):  # expect: JC501
    requests.post(f"https://chat.example/{channel}", json={"text": text})


class Reports:
    def monthly(self, month):  # expect: JC501
        print(month)


def on_failed(job, connection, type, value, traceback):  # expect: JC501
    """The worker runs it after a failed job: a job of its own."""
    print("failed", job.id)


def not_a_job():
    print("never enqueued")


def signup(phone, code, address):
    queue.enqueue(send_sms_code, phone, code, retry=Retry(max=2), on_failure=on_failed)
    queue.enqueue("enqueue.send_newsletter", address)
    queue.enqueue_in(timedelta(minutes=5), partial(notify, "ops"), "signup")
    queue.enqueue(Reports().monthly, "2024-01")
    scheduler.cron("0 3 * * *", func=rebuild_search_index)
    [].append(not_a_job)
