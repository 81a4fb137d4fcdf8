# backoff/tenacity retry on an exception type the function itself catches and turns into
# another: the retry cannot fire from the effect, so the effect is not repeated by it.
import backoff
import requests
import tenacity


class UpstreamError(Exception):
    pass


@backoff.on_exception(backoff.expo, requests.RequestException, max_tries=5)
def push_translated(order_id):
    try:
        requests.post("https://erp.example/orders", json={"id": order_id})  # todo-ok: JC201
    except requests.RequestException as exc:
        raise UpstreamError(str(exc)) from exc


@backoff.on_exception(backoff.expo, requests.RequestException, max_tries=5)
def push_reraised(order_id):
    try:
        requests.post("https://erp.example/orders", json={"id": order_id})  # expect: JC201
    except requests.RequestException:
        print("failed, retrying")
        raise


@tenacity.retry(retry=tenacity.retry_if_exception_type(ConnectionError), stop=tenacity.stop_after_attempt(3))
def push_wrapped(order_id):
    try:
        requests.post("https://erp.example/orders", json={"id": order_id})  # todo-ok: JC201
    except ConnectionError as exc:
        raise UpstreamError("erp down") from exc


@backoff.on_exception(backoff.expo, UpstreamError, max_tries=5)
def push_translated_then_retried(order_id):
    try:
        requests.post("https://erp.example/orders", json={"id": order_id})  # expect: JC201
    except requests.RequestException as exc:
        raise UpstreamError(str(exc)) from exc
