# tenacity, backoff and stamina retry any function: a job's, or a helper's.
import backoff
import requests
import stamina
import tenacity
from celery import shared_task
from tenacity import (
    retry,
    retry_if_exception_type,
    stop_after_attempt,
    stop_after_delay,
    wait_exponential,
    wait_fixed,
    wait_none,
    wait_random,
    wait_random_exponential,
)

WAIT = wait_fixed(5)
ATTEMPTS = 5


@retry(stop=stop_after_attempt(5))  # expect: JC203
def fetch_rates():
    return requests.get("https://rates.example.com", timeout=5).json()


@tenacity.retry(retry=retry_if_exception_type(ConnectionError), stop=stop_after_delay(30))  # expect: JC203
def fetch_prices():
    return requests.get("https://prices.example.com", timeout=5).json()


@retry  # expect: JC203
def fetch_forever():
    return requests.get("https://forever.example.com", timeout=5).json()


@retry(stop=stop_after_attempt(ATTEMPTS))  # expect: JC203
def fetch_fees():
    return requests.get("https://fees.example.com", timeout=5).json()


@shared_task
def refresh_rates():
    fetch_rates()
    fetch_prices()
    fetch_forever()


@retry(stop=stop_after_attempt(5), wait=wait_none())  # todo-expect: JC203
def waits_nothing_by_name():
    return requests.get("https://rates.example.com", timeout=5).json()


@retry(stop=stop_after_attempt(5), wait=wait_fixed(0.1))  # todo-expect: JC203
def waits_a_tenth_of_a_second():
    return requests.get("https://rates.example.com", timeout=5).json()


@backoff.on_exception(backoff.constant, requests.RequestException, interval=0, max_tries=5)  # todo-expect: JC203
def backoff_constant_zero():
    return requests.get("https://rates.example.com", timeout=5).json()


# Clean: exponential waits, a real constant wait, waits the framework cannot read, a single
# retry, backoff's and stamina's exponential defaults.

@retry(stop=stop_after_attempt(5), wait=wait_exponential(multiplier=1, max=60))
def exponential():
    return requests.get("https://rates.example.com", timeout=5).json()


@retry(stop=stop_after_attempt(5), wait=wait_random_exponential(max=60))
def random_exponential():
    return requests.get("https://rates.example.com", timeout=5).json()


@retry(stop=stop_after_attempt(5), wait=wait_fixed(10))
def constant_ten_seconds():
    return requests.get("https://rates.example.com", timeout=5).json()


@retry(stop=stop_after_attempt(5), wait=wait_fixed(3) + wait_random(0, 2))
def combined_wait():
    return requests.get("https://rates.example.com", timeout=5).json()


@retry(stop=stop_after_attempt(5), wait=WAIT)
def wait_from_a_name():
    return requests.get("https://rates.example.com", timeout=5).json()


@retry(stop=stop_after_attempt(2))
def one_retry():
    return requests.get("https://rates.example.com", timeout=5).json()


@backoff.on_exception(backoff.expo, requests.RequestException, max_tries=5)
def backoff_expo():
    return requests.get("https://rates.example.com", timeout=5).json()


@stamina.retry(on=requests.RequestException, attempts=5)
def stamina_default():
    return requests.get("https://rates.example.com", timeout=5).json()
