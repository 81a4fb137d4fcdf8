# jobcheck-test: select=JC201
# A POST made by a function named for asking (an embedding, a prediction, a status) carries a
# question in its body: a retry asks again and changes nothing. A function whose name also says it
# changes something (`get_or_create_...`), or that is named for doing (`generate_...`), is read as
# a write. So does an API client's method that hands its request to a shared helper POSTing every
# request (`fetch_threads` -> `self.graphql(ThreadsQuery())`): the method's name says what this
# request does; the same helper's writes (`unsend`) are still reported.
import requests
import tenacity
from celery import shared_task


@tenacity.retry(stop=tenacity.stop_after_attempt(5), retry=tenacity.retry_if_exception_type(requests.RequestException))
def embed_documents(endpoint, docs):
    response = requests.post(endpoint, json={"inputs": docs})
    response.raise_for_status()
    return response.json()["embeddings"]


@tenacity.retry(stop=tenacity.stop_after_attempt(5), retry=tenacity.retry_if_exception_type(requests.RequestException))
def get_transaction_status(gateway, signature):
    return requests.post(f"{gateway}/transactions/status", json={"signature": signature}).json()


@tenacity.retry(stop=tenacity.stop_after_attempt(5), retry=tenacity.retry_if_exception_type(requests.RequestException))
def get_or_create_customer(api, email):
    return requests.post(f"{api}/customers", json={"email": email}).json()  # expect: JC201


@tenacity.retry(stop=tenacity.stop_after_attempt(3), retry=tenacity.retry_if_exception_type(requests.RequestException))
def generate_invoice(api, order):
    return requests.post(f"{api}/invoices", json=order).json()  # expect: JC201


@tenacity.retry(stop=tenacity.stop_after_attempt(3), retry=tenacity.retry_if_exception_type(requests.RequestException))
def check_disk_usage(slack, usage):
    if usage > 0.9:
        requests.post(slack, json={"text": f"disk at {usage:.0%}"})  # expect: JC201


class ChatAPI:
    def __init__(self, url):
        self.url = url
        self.http = requests.Session()

    def _post(self, **kwargs):
        return self.http.post(self.url, **kwargs)

    def graphql(self, doc_id, variables):
        return self._post(data={"doc_id": doc_id, "variables": variables}).json()

    def fetch_threads(self, count):
        return self.graphql("ThreadListQuery", {"count": count})

    def iter_threads(self, count):
        yield from self.fetch_threads(count)

    def unsend(self, message_id):
        return self.graphql("MessageUnsendMutation", {"message_id": message_id})


class Bridge:
    def __init__(self, api: ChatAPI):
        self.api = api

    def sync(self):
        for attempt in range(5):
            try:
                threads = list(self.api.iter_threads(20))
                self.api.unsend(threads[0]["last_message"])  # expect: JC201
                return threads
            except requests.RequestException:
                continue


@shared_task
def index(endpoint, api, docs, order):
    vectors = embed_documents(endpoint, docs)
    get_transaction_status(api, order["signature"])
    get_or_create_customer(api, order["email"])
    generate_invoice(api, order)
    check_disk_usage(api, order["usage"])
    Bridge(ChatAPI(api)).sync()
    return len(vectors)
