# jobcheck-test: select=JC201,JC202,JC203
# A retry loop that posts again on its own timeout repeats the POST wherever it is called from: a
# helper no job reaches (a command-line tool's) is read too. Its loop around a GET, a POST that
# carries a key from the work or a login repeats nothing, and a loop that asks a person each round
# is no retry.
import time

import requests


def push_report(url, report):
    for attempt in range(3):
        try:
            return requests.post(url, json=report, timeout=5)  # expect: JC201
        except requests.Timeout:
            time.sleep(2 ** attempt)


def fetch_report(url):
    for attempt in range(3):
        try:
            return requests.get(url, timeout=5)
        except requests.Timeout:
            time.sleep(2 ** attempt)


def push_keyed(url, report):
    for attempt in range(3):
        try:
            return requests.post(url, json=report, timeout=5, headers={"Idempotency-Key": report["id"]})
        except requests.Timeout:
            time.sleep(2 ** attempt)


def push_forever(url, report):
    while True:  # expect: JC202
        try:
            return requests.post(url, json=report, timeout=5)  # expect: JC201
        except requests.Timeout:
            time.sleep(5)


def ask_for_node(update):
    """Asks a person for another URL each round: a form, not the same work tried again."""
    while True:
        url = input("node URL: ")
        try:
            requests.post("https://gateway.example/config", json={"url": url}, timeout=5)
            break
        except requests.RequestException:
            print("that did not work, try another")


class Client:
    def authenticate(self, user, password):
        """A login asks for a session: retrying it changes nothing at the far end."""
        for attempt in range(3):
            try:
                return requests.post("https://api.example/login", json={"user": user, "password": password},
                                     timeout=5)
            except requests.Timeout:
                time.sleep(1)


def create_user(hub, name):
    """A 409 on a retry is taken as done: the hub knows the user by its name, a retried create finds
    it made."""
    for attempt in range(1, 4):
        try:
            response = requests.post(f"{hub}/users/{name}", timeout=5)
            response.raise_for_status()
            return response
        except requests.HTTPError as e:
            if attempt > 1 and e.response.status_code == 409:
                return e.response
            if e.response.status_code >= 500:
                time.sleep(2 ** attempt)
                continue
            raise



def acquire_slot(client, name):
    """Goes round only while the server answers 423 Locked: a refusal, the POST did nothing."""
    while True:
        try:
            response = requests.post(f"{client}/slots/{name}", timeout=5)
            response.raise_for_status()
            return response
        except requests.HTTPError as exc:
            if exc.response.status_code != 423:
                raise
            time.sleep(float(exc.response.headers["Retry-After"]))


def send_until_accepted(url, body):
    """Goes round on a 502 too, which a proxy answers after the POST may have landed."""
    while True:
        try:
            response = requests.post(url, json=body, timeout=5)  # expect: JC201
            response.raise_for_status()
            return response
        except requests.HTTPError as exc:
            if exc.response.status_code not in (429, 502):
                raise
            time.sleep(5)


def push_at_once(url, report):
    """Posts again at once, three times: a retry with no delay (JC203) as much as a repeat (JC201)."""
    for attempt in range(3):  # expect: JC203
        try:
            return requests.post(url, json=report, timeout=5)  # expect: JC201
        except requests.Timeout:
            pass


if __name__ == "__main__":
    ask_for_node(print)
    Client().authenticate("u", "p")
    create_user("https://hub.example", "ann")
    acquire_slot("https://hub.example", "a")
    send_until_accepted("https://hub.example", {})
    push_report("https://reports.example", {"id": "r1"})
    fetch_report("https://reports.example/r1")
    push_keyed("https://reports.example", {"id": "r1"})
    push_forever("https://reports.example", {"id": "r1"})
    push_at_once("https://reports.example", {"id": "r1"})
