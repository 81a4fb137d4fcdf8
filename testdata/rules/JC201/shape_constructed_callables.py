# jobcheck-test: select=JC201
# A retried method calls the callable its object was constructed with (`self._send = send`): the
# effect is what the constructions pass (`Notifier(send=post_webhook)`), also through a helper that
# constructs it with what its own callers hand it (`make_timer(charge_card)`).
import requests
from celery import shared_task
from tenacity import retry, stop_after_attempt


class Notifier:
    def __init__(self, send):
        self._send = send

    @retry(stop=stop_after_attempt(3))
    def notify(self, event):
        self._send(event)  # expect: JC201


def post_webhook(event):
    requests.post("https://hooks.example/events", json=event)


def log_only(event):
    print(event)


class Recorder:
    def __init__(self, sink):
        self._sink = sink

    @retry(stop=stop_after_attempt(3))
    def record(self, event):
        self._sink(event)


@shared_task
def announce(event):
    Notifier(send=post_webhook).notify(event)
    Recorder(log_only).record(event)



class TimerTask:
    def __init__(self, task_func, delay):
        self.task_func = task_func
        self.delay = delay

    @retry(stop=stop_after_attempt(3))
    def execute(self):
        self.task_func()  # expect: JC201


class Quiet:
    def __init__(self, task_func):
        self.task_func = task_func

    @retry(stop=stop_after_attempt(3))
    def execute(self):
        self.task_func()


def make_timer(task_func, delay=10):
    return TimerTask(task_func, delay)


def make_quiet(task_func):
    return Quiet(task_func)


def charge_card():
    requests.post("https://payments.example/charges", json={"amount": 100})


@shared_task
def bill():
    make_timer(charge_card).execute()
    make_quiet(log_only).execute()
