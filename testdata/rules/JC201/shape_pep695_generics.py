# jobcheck-test: select=JC000,JC201,JC501
# Python 3.12 syntax (PEP 695 type aliases and generic functions) next to a retried task. Under
# an older interpreter `ast.parse` refuses the file; the task must still be analysed.
import requests
from celery import shared_task

type Payload = dict[str, object]


def first[T](items: list[T]) -> T:
    return items[0]


@shared_task(autoretry_for=(Exception,), max_retries=3)
def push(payload: Payload):  # expect: JC501
    requests.post("https://partner.example/hooks", json=payload)  # expect: JC201
