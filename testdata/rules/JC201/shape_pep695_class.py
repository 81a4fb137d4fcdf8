# jobcheck-test: select=JC000,JC201,JC501
# A generic class (PEP 695) holding the client, and a clean task that only reads.
import requests
from celery import shared_task


class Client[T]:
    def send(self, item: T) -> None:
        requests.post("https://partner.example/items", json=item)

    def fetch(self, key: str) -> T:
        return requests.get(f"https://partner.example/items/{key}").json()


@shared_task(autoretry_for=(Exception,), max_retries=3)
def push(item):  # expect: JC501
    Client[dict]().send(item)  # expect: JC201


@shared_task(autoretry_for=(Exception,), max_retries=3)
def pull(key):  # expect: JC501
    return Client[dict]().fetch(key)
