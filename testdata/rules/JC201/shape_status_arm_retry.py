# jobcheck-test: select=JC201
# A task that asks for its own retry after its POST, in an arm that runs only on a status saying
# the request did nothing (`elif response.status_code == 429:`, a rate limit), repeats nothing;
# in an arm on a status after which the far end may have acted (a 502 from a proxy), it repeats
# the POST.
import requests
from celery import shared_task


@shared_task(bind=True, max_retries=5)
def send_ping(self, url, body):
    response = requests.post(url, data=body, timeout=10)
    if response.status_code in (200, 204):
        return "sent"
    elif response.status_code == 429:
        self.retry(countdown=float(response.headers.get("Retry-After", 5)))
    else:
        response.raise_for_status()


@shared_task(bind=True, max_retries=5)
def send_alert(self, url, body):
    response = requests.post(url, data=body, timeout=10)  # expect: JC201
    if response.status_code == 502:
        self.retry(countdown=30)
    response.raise_for_status()
