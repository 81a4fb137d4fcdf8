# jobcheck-test: select=JC201
# A response hook the application installs raises the error status on every response (requests'
# `session.hooks["response"]`, httpx's `event_hooks`): the POST itself raises it, and a retry on it
# repeats the POST.
import backoff
import httpx
import requests
import tenacity


class TicketClient:
    def __init__(self, base):
        self.base = base
        self.session = requests.Session()
        self.session.hooks["response"].append(lambda r, *args, **kwargs: r.raise_for_status())

    @backoff.on_exception(backoff.expo, requests.exceptions.HTTPError, max_tries=5)
    def create_ticket(self, ticket):
        return self.session.post(f"{self.base}/tickets", json=ticket)  # expect: JC201


@tenacity.retry(retry=tenacity.retry_if_exception_type(httpx.HTTPStatusError), stop=tenacity.stop_after_attempt(3),
                wait=tenacity.wait_exponential())
def notify(url, event):
    client = httpx.Client(event_hooks={"response": [lambda r: r.raise_for_status()]})
    return client.post(url, json=event)  # expect: JC201
