# jobcheck-test: select=JC501
# A loop that calls each callable written out in a tuple in turn (`for step in (sync, mail):
# step()`, `for name, step in (("sync", sync), ("mail", mail)):`) runs every one of them in each
# round: each is a step of the loop, and so is what a lambda written among them calls
# (`("prune", lambda: prune(30))`). One written in a tuple but never called, or a tuple of values
# that are not all callables, is not.
import time

import requests


def sync_accounts():
    requests.post("https://crm.example/sync", json={})


def send_digest():
    requests.post("https://mail.example/digest", json={})


def rotate_keys():
    requests.post("https://vault.example/rotate", json={})


def prune(days):
    requests.post("https://store.example/prune", json={"days": days})


def describe():
    return "steps"


def steward_loop():  # expect: JC501
    while True:
        time.sleep(300)
        for step in (sync_accounts, send_digest):
            step()
        for name, step in (("rotate", rotate_keys), ("prune", lambda: prune(30)), ("digest", send_digest)):
            try:
                step()
            except Exception as exc:
                print(name, exc)


def listing_loop():  # expect: JC501
    while True:
        time.sleep(60)
        for name, label in (("describe", describe), ("count", 3)):
            requests.post("https://status.example/label", json={"name": name, "label": str(label)})
