# Retries from Dramatiq's default, RQ's Retry at the enqueue call, Huey, and retry decorators.
import backoff
import dramatiq
import requests
import smtplib
import stamina
import tenacity
from huey import RedisHuey
from redis import Redis
from rq import Queue, Retry
from slack_sdk import WebClient
from twilio.rest import Client

huey = RedisHuey("jobs")
queue = Queue(connection=Redis())
slack = WebClient(token="x")


@dramatiq.actor
def announce(channel, text):
    slack.chat_postMessage(channel=channel, text=text)  # expect: JC201


@dramatiq.actor(max_retries=0)
def announce_once(channel, text):
    slack.chat_postMessage(channel=channel, text=text)


def text_customer(phone):
    Client("sid", "token").messages.create(to=phone, from_="+1", body="hi")  # expect: JC201


def enqueue_texts(phone):
    queue.enqueue(text_customer, phone, retry=Retry(max=3, interval=[10, 30, 60]))
    queue.enqueue(text_customer, phone)


@huey.task(retries=2, retry_delay=10)
def mail_report(address):
    with smtplib.SMTP("localhost") as smtp:
        smtp.sendmail("from@example.com", [address], "report")  # expect: JC201


@huey.task()
def mail_report_no_retries(address):
    with smtplib.SMTP("localhost") as smtp:
        smtp.sendmail("from@example.com", [address], "report")


@tenacity.retry(stop=tenacity.stop_after_attempt(5), wait=tenacity.wait_exponential())
def post_event(event):
    requests.post("https://events.example/", json=event)  # expect: JC201


@backoff.on_exception(backoff.expo, requests.RequestException, max_tries=4)
def patch_profile(user_id, data):
    requests.patch(f"https://crm.example/users/{user_id}", json=data)  # expect: JC201


@stamina.retry(on=requests.HTTPError, attempts=3)
def fetch_profile(user_id):
    # A GET is not an effect.
    return requests.get(f"https://crm.example/users/{user_id}").json()


@tenacity.retry
def post_with_key(event):
    requests.post("https://events.example/", json=event, headers={"Idempotency-Key": event["id"]})
