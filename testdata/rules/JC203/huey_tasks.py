# huey: `retries=N` with `retry_delay` (default 0), and `raise RetryTask`, which re-enqueues the
# task whatever `retries` says.
import requests
from huey import RedisHuey
from huey.exceptions import RetryTask

huey = RedisHuey("shop")
DELAY = 60


@huey.task(retries=5)  # expect: JC203
def export_orders(day):
    requests.post("https://warehouse.example.com/export", json={"day": day}, timeout=10)


@huey.task(retries=5, retry_delay=0, retry_backoff=2)  # expect: JC203
def doubled_zero(day):
    requests.post("https://warehouse.example.com/export", json={"day": day}, timeout=10)


@huey.task()  # expect: JC203
def poll_until_ready(report_id):
    if not requests.get(f"https://reports.example.com/{report_id}", timeout=10).ok:
        raise RetryTask()


@huey.task()
def poll_with_zero_delay(report_id):
    if not requests.get(f"https://reports.example.com/{report_id}", timeout=10).ok:
        raise RetryTask(delay=0)  # expect: JC203


# Clean: a real delay, a delay from a name, a doubling delay, a delay at the raise, no retries.

@huey.task(retries=5, retry_delay=30)
def constant_delay(day):
    requests.post("https://warehouse.example.com/export", json={"day": day}, timeout=10)


@huey.task(retries=5, retry_delay=DELAY)
def delay_from_a_name(day):
    requests.post("https://warehouse.example.com/export", json={"day": day}, timeout=10)


@huey.task(retries=5, retry_delay=10, retry_backoff=2)
def doubling(day):
    requests.post("https://warehouse.example.com/export", json={"day": day}, timeout=10)


@huey.task()
def poll_politely(report_id):
    if not requests.get(f"https://reports.example.com/{report_id}", timeout=10).ok:
        raise RetryTask(delay=30)


@huey.task()
def no_retries(day):
    requests.post("https://warehouse.example.com/export", json={"day": day}, timeout=10)
