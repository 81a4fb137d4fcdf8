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
        requests.post("https://erp.example/orders", json={"id": order_id})
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
        requests.post("https://erp.example/orders", json={"id": order_id})
    except ConnectionError as exc:
        raise UpstreamError("erp down") from exc


@backoff.on_exception(backoff.expo, UpstreamError, max_tries=5)
def push_translated_then_retried(order_id):
    try:
        requests.post("https://erp.example/orders", json={"id": order_id})  # expect: JC201
    except requests.RequestException as exc:
        raise UpstreamError(str(exc)) from exc


def render_receipt(order_id):
    return f"receipt {order_id}"


@tenacity.retry(retry=tenacity.retry_if_exception_type(ConnectionError), stop=tenacity.stop_after_attempt(3))
def push_wrapped_then_local_work(order_id):
    # What follows the effect makes no connection: it cannot raise ConnectionError either.
    try:
        requests.post("https://erp.example/orders", json={"id": order_id})
    except ConnectionError as exc:
        raise UpstreamError("erp down") from exc
    return render_receipt(order_id)


# Look-alikes the retry still reaches.
@backoff.on_exception(backoff.expo, requests.RequestException, max_tries=5)
def push_narrow_catch(order_id):
    try:
        requests.post("https://erp.example/orders", json={"id": order_id})  # expect: JC201
    except requests.ConnectionError as exc:  # a timeout is a RequestException this does not catch
        raise UpstreamError(str(exc)) from exc


@tenacity.retry(retry=tenacity.retry_if_exception_type(ConnectionError), stop=tenacity.stop_after_attempt(3))
def push_unwrapped(order_id):
    requests.post("https://erp.example/orders", json={"id": order_id})  # expect: JC201


@tenacity.retry(retry=tenacity.retry_if_exception_type(ConnectionError), stop=tenacity.stop_after_attempt(3))
def push_then_notify(order_id):
    try:
        requests.post("https://erp.example/orders", json={"id": order_id})  # expect: JC201
    except ConnectionError as exc:
        raise UpstreamError("erp down") from exc
    requests.get(f"https://erp.example/orders/{order_id}/ack")  # a connection after the write
