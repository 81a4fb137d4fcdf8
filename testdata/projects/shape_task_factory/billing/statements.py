import requests

from billing import celerylib


@celerylib.task
def send_statement(account_id):  # expect: JC501
    requests.post("https://mail.example/statements", json={"account": account_id})  # not retried


def task(name):
    """A look-alike named `task` that registers nothing."""
    return name.upper()
