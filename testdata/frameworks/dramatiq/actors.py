# jobcheck-test: select=JC201,JC501
# Dramatiq, as its documentation writes it: actors retry by default (20 times, exponential
# backoff), so an effect in one is retried unless `max_retries=0`; `GenericActor` subclasses run
# `perform`; an abstract one is not an actor.
import dramatiq
import requests
from django.core.mail import send_mail


@dramatiq.actor
def count_words(url):  # expect: JC501
    response = requests.get(url)
    print(len(response.text.split()))


@dramatiq.actor(queue_name="mail")
def send_welcome(address):  # expect: JC501
    send_mail("Welcome", "Hi", "shop@example.com", [address])  # expect: JC201


@dramatiq.actor(max_retries=0)
def send_goodbye(address):  # expect: JC501
    send_mail("Bye", "Bye", "shop@example.com", [address])


@dramatiq.actor(max_retries=3, min_backoff=1000, on_retry_exhausted="report_dead")
def push_event(event):  # expect: JC501
    requests.post("https://events.example/", json=event)  # expect: JC201


@dramatiq.actor
def report_dead(message_data, retry_info):  # expect: JC501
    print("gave up on", message_data)


class BaseSync(dramatiq.GenericActor):
    class Meta:
        abstract = True

    def perform(self, account_id):
        raise NotImplementedError


class SyncAccount(BaseSync):  # expect: JC501
    class Meta:
        queue_name = "sync"
        max_retries = 5

    def perform(self, account_id):
        requests.post("https://crm.example/accounts", json={"id": account_id})  # expect: JC201


def signup(address):
    send_welcome.send(address)
    push_event.send_with_options(args=({"type": "signup"},), delay=1000)
