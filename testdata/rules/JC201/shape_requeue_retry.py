# jobcheck-test: select=JC201,JC202,JC203
# A job that enqueues itself again from an `except` of its own, or from a helper called there,
# retries itself through its queue: the POST before the failure is sent again. Under a condition
# (`if attempt < 3`) it is bounded; with no condition it retries forever (JC202); enqueued again at
# once (`delay()`), with no wait (JC203). Enqueueing another task on a failure, or itself for the
# next page after a success, retries nothing.
import requests
from celery import shared_task


@shared_task
def deliver(item_id, attempt=1):
    try:
        requests.post("https://hooks.example.com/in", json={"id": item_id}, timeout=10)  # expect: JC201
    except requests.RequestException:
        if attempt < 3:
            deliver.apply_async((item_id, attempt + 1), countdown=30 * 2 ** attempt)


def _schedule_retry(item_id, attempt):
    if attempt <= 5:
        push.apply_async((item_id, attempt + 1), countdown=60 * attempt)


@shared_task
def push(item_id, attempt=1):
    try:
        requests.post("https://hooks.example.com/in", json={"id": item_id}, timeout=10)  # expect: JC201
    except requests.RequestException:
        _schedule_retry(item_id, attempt)


@shared_task
def forward(item_id):
    try:
        requests.post("https://hooks.example.com/in", json={"id": item_id}, timeout=10)  # expect: JC201
    except requests.RequestException:
        forward.delay(item_id)  # expect: JC202, JC203


@shared_task
def report_failure(item_id):
    print("failed", item_id)


@shared_task
def notify(item_id):
    try:
        requests.post("https://hooks.example.com/in", json={"id": item_id}, timeout=10)
    except requests.RequestException:
        report_failure.delay(item_id)


@shared_task
def sync_page(page=1):
    response = requests.post("https://api.example.com/sync", json={"page": page}, timeout=10)
    if response.json().get("more"):
        sync_page.delay(page + 1)


def _schedule_checked(item_id, attempt):
    if attempt <= 5:
        push_checked.apply_async((item_id, attempt + 1), countdown=60 * attempt)


@shared_task
def push_checked(item_id, attempt=1):
    try:
        response = requests.post("https://hooks.example.com/in", json={"id": item_id}, timeout=10)  # expect: JC201
        if response.status_code >= 500:
            _schedule_checked(item_id, attempt)  # enqueueing itself again is how it retries: no effect repeated
    except Exception:
        _schedule_checked(item_id, attempt)


@shared_task
def relay(item_id, attempt=0):
    try:
        requests.post("https://hooks.example.com/in", json={"id": item_id}, timeout=10)  # expect: JC201
    except requests.RequestException:
        if attempt >= 3:
            raise  # gives up: bounded
        relay.apply_async((item_id, attempt + 1), countdown=60 * 2 ** attempt)


@shared_task
def convert(item_id):
    try:
        requests.post("https://hooks.example.com/in", json={"id": int(item_id)}, timeout=10)
    except TypeError:
        convert.delay(str(item_id))  # a repair of the input (the same work fails the same way): no retry


def _should_retry(attempt):
    return attempt < 5


def _schedule_redelivery(item_id, attempt):
    redeliver.apply_async(args=(item_id,), kwargs={"attempt": attempt + 1}, countdown=60)


def _handle_failure(item_id, attempt):
    """The enqueue two helpers away, under a condition of the first: bounded (no JC202)."""
    if _should_retry(attempt):
        _schedule_redelivery(item_id, attempt)


@shared_task
def redeliver(item_id, attempt=1):
    try:
        requests.post("https://hooks.example.com/in", json={"id": item_id}, timeout=10)  # expect: JC201
    except requests.Timeout:
        _handle_failure(item_id, attempt)
