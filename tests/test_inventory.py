"""`jobcheck jobs` and `jobcheck check --list-jobs`: the job inventory, as text and as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .cli_support import run_cli, write_tree

PROJECT = {
    "pyproject.toml": """
[tool.jobcheck]

[tool.jobcheck.entry-points]
signals = ["shop.signals.hourly"]
""",
    "shop/__init__.py": "",
    "shop/celery.py": """
from celery import Celery

app = Celery("shop")
""",
    "shop/notify.py": """
from django.core.mail import send_mail


def tell_customer(address, text):
    send_mail("Your order", text, "shop@example.com", [address])
""",
    "shop/signals.py": """
import django.dispatch

hourly = django.dispatch.Signal()
""",
    "shop/tasks.py": """
import dramatiq
from django.dispatch import receiver
from rq import Retry

from shop.celery import app
from shop.notify import tell_customer
from shop.signals import hourly


@app.task(autoretry_for=(Exception,), max_retries=3, retry_backoff=True)
def send_invoice(invoice_id, address):
    tell_customer(address, f"invoice {invoice_id}")


@app.task(max_retries=10, retry_backoff=True)
def dead_settings(address):
    tell_customer(address, "hello")


@dramatiq.actor
def recount(product_id):
    print(product_id)


def archive(order_id):
    print(order_id)


@receiver(hourly)
def expire_carts(sender, **kwargs):
    print("expired")


def helper():
    print("not a job")
""",
    "shop/views.py": """
from django_rq import get_queue
from rq import Retry


def checkout(order_id):
    get_queue("default").enqueue("shop.tasks.archive", order_id, retry=Retry(max=2, interval=[30, 120]))
""",
}


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    return write_tree(tmp_path, PROJECT)


def _jobs_json(project: Path, *args: str) -> dict:
    result = run_cli(["jobs", "--output-format", "json", *args, "."], project)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_json_lists_every_entry_point_and_nothing_else(project: Path) -> None:
    data = _jobs_json(project)
    assert data["version"] == 1
    assert data["files"] == 6
    assert data["unanalysed"] == [] and data["errors"] == []
    jobs = {row["job"]: row for row in data["jobs"]}
    assert set(jobs) == {
        "shop.tasks.send_invoice", "shop.tasks.dead_settings", "shop.tasks.recount",
        "shop.tasks.archive", "shop.tasks.expire_carts",
    }
    row = jobs["shop.tasks.send_invoice"]
    assert set(row) == {"job", "module", "name", "function", "framework", "kind", "path", "line", "column",
                        "triggers", "retry", "delivery", "settings", "effects", "guarded_effects", "overlap"}
    assert (row["module"], row["name"], row["framework"], row["kind"]) == ("shop.tasks", "send_invoice", "celery", "task")
    assert (Path(row["path"]).as_posix(), row["line"], row["column"]) == ("shop/tasks.py", 12, 5)
    assert row["triggers"] == ["enqueue"]
    assert jobs["shop.tasks.expire_carts"]["triggers"] == ["schedule"]
    assert jobs["shop.tasks.expire_carts"]["kind"] == "periodic"
    assert jobs["shop.tasks.expire_carts"]["settings"] == {"signal": "shop.signals.hourly"}


GUARDED = {
    "jobs.py": """
import redis
import requests
from apscheduler.schedulers.blocking import BlockingScheduler
from celery import shared_task

scheduler = BlockingScheduler()
r = redis.Redis()


@shared_task(autoretry_for=(Exception,), max_retries=3)
def push(order_id):
    requests.post("https://erp.example/orders", json={"id": order_id}, headers={"Idempotency-Key": f"order-{order_id}"})
    requests.post("https://erp.example/notes", json={"id": order_id})


@scheduler.scheduled_job("interval", minutes=5, max_instances=1)
def sweep():
    with r.lock("sweep", timeout=600):
        requests.post("https://erp.example/sweep")
""",
}


def test_json_lists_guarded_effects_and_what_stands_between_two_runs(tmp_path: Path) -> None:
    jobs = {row["name"]: row for row in _jobs_json(write_tree(tmp_path, GUARDED))["jobs"]}
    push, sweep = jobs["push"], jobs["sweep"]
    assert [(e["kind"], e["call"], e["function"]) for e in push["guarded_effects"]] == [("http", "requests.post", "jobs.push")]
    assert [e["kind"] for e in push["effects"]] == ["http"]  # the notes call has no key
    assert push["overlap"] == {"locks": [], "settings": {}}
    assert sweep["overlap"]["locks"] == ["redis.Redis().lock"]
    assert sweep["overlap"]["settings"] == {"max_instances": "1"}


RETRIED = {
    "sync/__init__.py": "",
    "sync/client.py": """
import time

import requests
from celery import shared_task
from tenacity import retry, stop_after_attempt


@retry(stop=stop_after_attempt(3))
def push(order_id):
    requests.post("https://erp.example/orders", json={"id": order_id})


def plain(order_id):
    return order_id


@shared_task
@retry(stop=stop_after_attempt(2))
def sync(order_id):
    push(order_id)
    notify(order_id)


def notify(order_id):
    for attempt in range(3):
        try:
            requests.post("https://hooks.example/orders", json={"id": order_id})
            return
        except requests.ConnectionError:
            time.sleep(2 ** attempt)


def wait_ready():
    for attempt in range(10):
        try:
            return requests.get("https://erp.example/health").json()
        except requests.ConnectionError:
            time.sleep(1)


def resend(order_id, retries=4):
    try:
        requests.post("https://erp.example/resend", json={"id": order_id})
    except requests.ConnectionError:
        if retries:
            time.sleep(5)
            resend(order_id, retries=retries - 1)


def split(order_ids):
    try:
        requests.post("https://erp.example/batch", json=order_ids)
    except requests.HTTPError:
        split(order_ids[1:])


def store_copy(client, key, body):
    for attempt in range(3):
        try:
            return client.put_object(Bucket="copies", Key=key, Body=body)
        except OSError:
            time.sleep(1)


def remember(seen, key):
    for attempt in range(3):
        try:
            seen.add(key)
            return
        except OSError:
            time.sleep(1)


def fetch_order(order_id):
    return requests.post("https://erp.example/fetch", json={"id": order_id})


def refresh(order_id):
    try:
        return fetch_order(order_id)
    except requests.Timeout:
        time.sleep(1)
        return fetch_order(order_id)
""",
}


def test_a_job_enqueueing_itself_again_on_a_failure_is_retried_through_its_queue(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"hooks.py": """
import requests
from celery import shared_task


@shared_task
def deliver(item_id, attempt=1):
    try:
        requests.post("https://hooks.example/in", json={"id": item_id}, timeout=10)
    except requests.RequestException:
        if attempt < 3:
            deliver.apply_async((item_id, attempt + 1), countdown=60)
"""})
    row = _jobs_json(root)["jobs"][0]
    assert (row["name"], row["retry"]["source"], row["retry"]["live"], row["retry"]["bounded"],
            row["retry"]["backoff"], row["retry"]["delay"]) == ("deliver", "requeue", True, True, "constant", 60.0)


def test_a_function_storing_when_to_try_again_is_listed_as_queued_again(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"sender.py": """
import time

import requests


def deliver(event):
    try:
        requests.post(event.url, json=event.payload, timeout=10)
    except requests.RequestException:
        event.next_retry_at = time.time() + 60


def reject(event):
    try:
        requests.post(event.url, json=event.payload, timeout=10)
    except requests.RequestException:
        event.update(status="dead", retry_on=None)
"""})
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    assert sorted(rows) == ["deliver"]  # `retry_on=` names what is retried, not when
    assert (rows["deliver"]["kind"], rows["deliver"]["retry"]["source"], rows["deliver"]["retry"]["backoff"],
            rows["deliver"]["retry"]["delay"]) == ("retried", "requeue", None, None)
    out = run_cli(["jobs", "--no-color", "."], root).stdout
    assert out.rstrip().endswith("0 jobs; 0 retried; 0 with unguarded external effects; 1 queued again on a failure.")


def test_functions_a_retry_decorator_runs_again_are_listed_apart_from_the_jobs(tmp_path: Path) -> None:
    root = write_tree(tmp_path, RETRIED)
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    # `plain` is neither, nor `wait_ready`, whose retry loop only reads, nor `split`, calling
    # itself on other data, nor `remember`, whose loop only adds to a set. `store_copy`'s loop
    # repeats a library's call named for a change the catalog does not know.
    assert sorted(rows) == ["fetch_order", "notify", "push", "resend", "store_copy", "sync"]
    # Called again once in the `except` of the `try` that called it, 1 s later.
    assert (rows["fetch_order"]["kind"], rows["fetch_order"]["retry"]["source"], rows["fetch_order"]["retry"]["max_retries"],
            rows["fetch_order"]["retry"]["delay"]) == ("retried", "once", 1, 1.0)
    assert (rows["store_copy"]["kind"], rows["store_copy"]["retry"]["source"]) == ("retried", "loop")
    # Calling itself again from its own `except`, counted down from 4, 5 s apart.
    assert (rows["resend"]["kind"], rows["resend"]["retry"]["source"], rows["resend"]["retry"]["max_retries"],
            rows["resend"]["retry"]["backoff"], rows["resend"]["retry"]["delay"]) == ("retried", "recursion", 4, "constant", 5.0)
    # A retry loop of its own that posts again: listed as retried, by its loop.
    assert (rows["notify"]["kind"], rows["notify"]["retry"]["source"], rows["notify"]["retry"]["live"]) == ("retried", "loop", True)
    assert (rows["push"]["framework"], rows["push"]["kind"], rows["push"]["triggers"]) == ("retry", "retried", ["failure"])
    assert rows["push"]["retry"]["max_retries"] == 2 and rows["push"]["retry"]["live"]
    assert rows["push"]["retry"]["source"] == rows["sync"]["retry"]["source"] == "decorator"
    assert rows["sync"]["kind"] == "task"  # a job under a retry decorator stays a job
    out = run_cli(["jobs", "--no-color", "."], root).stdout
    assert "sync/client.py:10:5: sync.client.push  [retry retried; failure]" in out
    assert out.rstrip().endswith("1 job (celery 1); 1 retried; 1 with unguarded external effects; "
                                 "1 function under a retry decorator; 2 with a retry loop of their own; "
                                 "1 calling itself again on a failure; 1 called again once on a failure.")
    five = run_cli(["check", "--select", "JC501", "--output-format", "json", "."], root)
    assert [f["job"] for f in json.loads(five.stdout)] == ["sync.client.sync"]  # no five questions for `push`


STARTED = {
    "bot/__init__.py": "",
    "bot/cog.py": """
import asyncio
import functools
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import requests
from agentlib.futures import FuturesAwareThreadPoolExecutor


class NotifyingThread(threading.Thread):
    def run(self):
        try:
            threading.Thread.run(self)
        finally:
            print("done")


class LimitedThread(NotifyingThread):
    # runs the target it is given, through its base's run: the target is what is started

    def __init__(self, namespace, *args, **kwargs):
        self.namespace = namespace
        super().__init__(*args, **kwargs)

    def run(self):
        try:
            NotifyingThread.run(self)
        finally:
            print("released", self.namespace)


class Uploader:
    def __init__(self, bucket):
        self.bucket = bucket

    def __call__(self, part):
        requests.put(f"https://store.example/{self.bucket}/{part}", data=b"")


class Outcome:
    def __init__(self, value):
        self.value = value


async def capture(operation):
    # keeps what the coroutine it is given returns: that coroutine is what is started
    try:
        return Outcome(await operation)
    except Exception as error:
        return error


class Cog:
    def __init__(self):
        self.executor = ThreadPoolExecutor(max_workers=4)
        self._stack = ExitStack()
        # a library's executor, known by its class's name; and one a context manager stack holds
        self.workers = FuturesAwareThreadPoolExecutor(max_workers=2)
        self.reconcilers = self._stack.enter_context(ThreadPoolExecutor(max_workers=1))

    def create_task(self, coro):
        self.tasks.append(asyncio.get_running_loop().create_task(coro))

    def initialize(self, form):
        self.create_task(self.announce("hello"))
        threading.Thread(target=self.restore, daemon=True).start()
        self.executor.submit(self.failover, 42)
        asyncio.create_task(self.refresh_forever())
        form.submit(self.not_started)
        self.workers.submit(self.process_request, {"id": 1})
        self.reconcilers.submit(self.reconcile)
        LimitedThread("accounts", target=self.sync_account, daemon=True).start()
        self.executor.submit(Uploader("parts"), 1)  # an instance handed over: its __call__ runs
        # a callable bound to arguments, and a thread that runs the coroutine it is given
        threading.Thread(target=functools.partial(self.rebuild, "all"), daemon=True).start()
        threading.Thread(target=asyncio.run, args=(self.watch_process(),), daemon=True).start()
        self.inbox = asyncio.create_task(capture(self.sync_inbox()), name="inbox")

    async def sync_inbox(self):
        requests.post("https://agent.example/inbox")

    def rebuild(self, scope):
        requests.post("https://agent.example/rebuild", json={"scope": scope})

    async def watch_process(self):
        process = await asyncio.create_subprocess_exec("server")
        await process.wait()

    def sync_account(self):
        requests.post("https://agent.example/sync")

    def process_request(self, request):
        requests.post("https://agent.example/requests", json=request)

    def reconcile(self):
        requests.post("https://agent.example/reconcile")

    async def announce(self, text):
        requests.post("https://chat.example/announce", json={"text": text})

    def restore(self):
        print("restore players")

    def failover(self, amphora_id):
        print("failover", amphora_id)

    async def refresh_forever(self):
        while True:
            self.refresh()
            await asyncio.sleep(60)

    def refresh(self):
        requests.get("https://feeds.example/")

    def not_started(self):
        print("a form's submit callback")

    def waits(self, urls, tasks_client):
        futures = [self.executor.submit(self.fetch, url) for url in urls]
        self.executor.submit(self.fetch_one, urls[0]).result()
        threading.Thread(target=self.make_handler(1)).start()
        tasks_client.create_task(self.build_task(1))
        return [f.result() for f in futures]

    def fetch(self, url):
        return requests.get(url)

    def fetch_one(self, url):
        return requests.get(url)

    def make_handler(self, n):
        return lambda: print(n)

    def build_task(self, n):
        return {"n": n}
""",
    "bot/worker_test.py": """
import threading


def helper_in_test():
    print("a pytest module's thread")


threading.Thread(target=helper_in_test).start()
""",
    "bot/tests/test_cog.py": """
import threading


def test_concurrent_saves():
    def worker():
        print("a test's thread")

    threading.Thread(target=worker).start()
""",
}


def test_functions_started_once_in_the_background_are_listed_apart_from_the_jobs(tmp_path: Path) -> None:
    root = write_tree(tmp_path, STARTED)
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    assert sorted(rows) == ["Cog.announce", "Cog.failover", "Cog.process_request", "Cog.rebuild", "Cog.reconcile",
                            "Cog.refresh", "Cog.refresh_forever", "Cog.restore", "Cog.sync_account", "Cog.sync_inbox",
                            "Cog.watch_process", "Uploader.__call__"]
    assert (rows["Cog.refresh"]["framework"], rows["Cog.refresh"]["kind"]) == ("loop", "step")  # each round of the loop
    for name in ("Cog.announce", "Cog.failover", "Cog.process_request", "Cog.rebuild", "Cog.reconcile", "Cog.restore",
                 "Cog.sync_account", "Cog.sync_inbox", "Cog.watch_process", "Uploader.__call__"):
        assert (rows[name]["framework"], rows[name]["kind"], rows[name]["triggers"]) == ("background", "background", ["start"])
        assert rows[name]["delivery"]["guarantee"] == "at-most-once"
    assert (rows["Cog.refresh_forever"]["framework"], rows["Cog.refresh_forever"]["kind"]) == ("loop", "periodic")
    text = run_cli(["jobs", "--no-cache", "."], cwd=root).output
    assert "1 job (loop 1)" in text and "10 started once in the background" in text
    # Not entry points: no five-questions finding on them.
    check = run_cli(["check", "--no-cache", "--select", "JC501", "--output-format", "json", "."], cwd=root)
    assert [f["function"] for f in json.loads(check.output)] == ["bot.cog.Cog.refresh_forever"]


TABLE_STARTED = {
    "relay/__init__.py": "",
    "relay/workers.py": """
import multiprocessing as mp

import requests


def send_emails(outbox):
    requests.post("https://mail.example/send", json=outbox.due())


def send_pushes(outbox):
    requests.post("https://push.example/send", json=outbox.due())


def describe(kind):
    return kind


KINDS = {
    "email": {"label": describe, "sender": send_emails},
    "push": {"label": describe, "sender": send_pushes},
}


def start(kind, outbox):
    mp.Process(target=KINDS[kind]["sender"], kwargs={"outbox": outbox}, daemon=True).start()
""",
}


def test_a_process_started_on_an_entry_of_a_table_runs_each_function_the_table_holds_there(tmp_path: Path) -> None:
    root = write_tree(tmp_path, TABLE_STARTED)
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    assert sorted(rows) == ["send_emails", "send_pushes"]  # not `describe`, held under another key
    assert {rows[name]["kind"] for name in rows} == {"background"}


def test_threads_kept_in_a_collection_green_threads_and_worker_start_receivers_are_started(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "svc/__init__.py": "",
        "svc/workers.py": """
import queue
import threading

import eventlet
from eventlet import greenpool

pool = greenpool.GreenPool()


class SiteWorker(threading.Thread):
    def __init__(self, jobs):
        super().__init__()
        self.jobs = jobs

    def run(self):
        while True:
            try:
                job = self.jobs.get(False)
            except queue.Empty:
                return
            job()


class Report:
    def run(self):
        return "not started"

    def start(self):
        return "a method of its own"


class Lazy(threading.Thread):
    def run(self):
        return "never started"


class JobsManager:
    def __init__(self):
        self.workers = {}
        self.reports = {}
        self.things = {}
        self.things["lazy"] = Lazy()

    def add_job(self, site, jobs):
        self.workers[site] = SiteWorker(jobs)
        self.workers[site].start()
        self.reports[site] = Report()
        self.reports[site].run()
        self.things["report"] = Report()
        self.things["report"].start()


class Proto:
    def communicate(self, fd, data):
        eventlet.spawn_n(self._write_input_data, fd, data)
        pool.spawn_n(self._flush, fd)

    def _write_input_data(self, fd, data):
        fd.write(data)

    def _flush(self, fd):
        fd.flush()
""",
        "svc/tasks.py": """
from celery import Celery, bootsteps
from celery.signals import task_failure, worker_init, worker_process_init, worker_ready, worker_shutdown
from django.dispatch import receiver
from celery.worker.control import Panel, control_command

app = Celery("svc")


@app.task
def refresh():
    return 1


@worker_ready.connect
def at_start(sender, **kwargs):
    sender.app.send_task("svc.tasks.refresh")


@worker_shutdown.connect
def at_stop(sender, **kwargs):
    return None


@worker_process_init.connect
def setup_tracing(**kwargs):
    return None


@control_command()
def set_log_level(state, level):
    return {"ok": level}


@Panel.register
def update_tools_list(panel, payload):
    return True


@task_failure.connect
def on_failure(sender=None, **kwargs):
    return None


class Metrics(bootsteps.StartStopStep):
    def start(self, parent):
        return None

    def stop(self, parent):
        return None


class Settings:
    def start(self):
        return "not a step"


def install():
    from celery.signals import celeryd_init

    @celeryd_init.connect(dispatch_uid="svc-init", weak=False)
    def add_step(sender=None, **kwargs):
        app.steps["consumer"].add(Metrics)


def instrument():
    from celery import signals

    signals.worker_process_shutdown.connect(flush_spans, weak=False)


def flush_spans(**kwargs):
    return None


@receiver(worker_init)
def warm_caches(sender=None, **kwargs):
    return None
""",
    })
    rows = {row["function"]: (row["framework"], row["kind"]) for row in _jobs_json(root)["jobs"]}
    # An entry of the instance's dict is what was stored in it (`self.workers[site] = SiteWorker(...)`),
    # so `self.workers[site].start()` starts that thread (and a plain object's `run` is no start; an
    # entry of a dict holding objects of two classes is neither);
    # eventlet's `spawn_n` starts what it is given; a worker's start and stop signals
    # (`worker_ready`, `worker_shutdown`, `worker_process_init`, `celeryd_init` connected in a
    # function, `worker_process_shutdown.connect(f)`, Django's `@receiver(worker_init)`) run their
    # receivers once, as do its bootsteps' `start` and `stop`; a remote-control command
    # (`@control_command()`, Celery 3's `@Panel.register`) runs in each worker a broadcast
    # reaches; a `task_failure` receiver runs in the worker once per failed task: a callback.
    assert rows == {
        "svc.workers.SiteWorker.run": ("background", "background"),
        "svc.workers.Proto._write_input_data": ("background", "background"),
        "svc.workers.Proto._flush": ("background", "background"),
        "svc.tasks.refresh": ("celery", "task"),
        "svc.tasks.at_start": ("background", "background"),
        "svc.tasks.at_stop": ("background", "background"),
        "svc.tasks.set_log_level": ("background", "background"),
        "svc.tasks.update_tools_list": ("background", "background"),
        "svc.tasks.on_failure": ("celery", "callback"),
        "svc.tasks.setup_tracing": ("background", "background"),
        "svc.tasks.Metrics.start": ("background", "background"),
        "svc.tasks.Metrics.stop": ("background", "background"),
        "svc.tasks.install.<locals>.add_step": ("background", "background"),
        "svc.tasks.flush_spans": ("background", "background"),
        "svc.tasks.warm_caches": ("background", "background"),
    }


def test_a_hook_called_on_an_attribute_named_like_it_is_the_family_s(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "rep/__init__.py": "",
        "rep/tasks.py": """
import requests
from celery import shared_task


class Filter:
    def filter(self, qs, value):
        raise NotImplementedError


class WebhookFilter(Filter):
    def filter(self, qs, value):
        requests.post("https://hooks.example/filter", json={"value": value})


class Report:
    def __init__(self, filter_):
        self.filter = filter_

    def run(self, qs):
        return self.filter.filter(qs, "2024")


@shared_task(autoretry_for=(Exception,), max_retries=3)
def report(flt, qs):
    Report(flt).run(qs)
""",
    })
    # `self.filter.filter(qs, v)`: an object named after the family, not a queryset's chained call.
    jobs = {(row["name"], row["kind"]) for row in _jobs_json(root)["jobs"]}
    assert jobs == {("report", "task"), ("WebhookFilter.filter", "dispatched")}


def test_an_entry_of_a_collection_holding_handlers_registered_by_callers_is_any_of_the_family(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "hooks/__init__.py": "",
        "hooks/tasks.py": """
import requests
from celery import Celery

app = Celery("hooks")


class BaseHandler:
    def handle(self, msg):
        raise NotImplementedError


class NoopHandler(BaseHandler):
    def handle(self, msg):
        return None


class WebhookHandler(BaseHandler):
    def handle(self, msg):
        requests.post("https://hooks.example/deliver", json=msg)


class Dispatcher:
    def __init__(self):
        self.handlers = {}
        self.handlers["noop"] = NoopHandler()

    def register(self, kind, handler):
        self.handlers[kind] = handler

    def dispatch(self, kind, msg):
        self.handlers[kind].handle(msg)


DISPATCHER = Dispatcher()
DISPATCHER.register("hook", WebhookHandler())


@app.task(autoretry_for=(Exception,), max_retries=5)
def deliver(kind, msg):
    DISPATCHER.dispatch(kind, msg)
""",
    })
    # The dict holds a `NoopHandler` and whatever `register` is given: its entry is not a
    # `NoopHandler`, so the call runs each handler of the family, and the retried POST is reported.
    jobs = {(row["name"], row["kind"]) for row in _jobs_json(root)["jobs"]}
    assert jobs == {("deliver", "task"), ("WebhookHandler.handle", "dispatched")}
    check = run_cli(["check", "--no-cache", "--select", "JC201", "--output-format", "json", "."], cwd=root)
    assert [f["code"] for f in json.loads(check.output)] == ["JC201"]


def test_a_collection_entry_stored_from_an_entry_of_itself_is_read_without_end(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"kitchen.py": """
class Kitchen:
    def fill(self, cols):
        self.frame[cols] = self.frame[cols].fillna(0)

    def go(self):
        self.frame["x"].start()
"""})
    # What an entry of `frame` is depends on what an entry of `frame` is: unknown, not a recursion.
    check = run_cli(["check", "--no-cache", "--select", "ALL", "--output-format", "json", "."], cwd=root)
    assert json.loads(check.output) == []


def test_json_gives_each_job_its_delivery_guarantee_and_what_decides_it(project: Path) -> None:
    jobs = {row["name"]: row for row in _jobs_json(project)["jobs"]}
    assert jobs["send_invoice"]["delivery"]["guarantee"] == "at-most-once"  # Celery acknowledges early
    assert "acks_late=False" in jobs["send_invoice"]["delivery"]["because"]
    assert jobs["recount"]["delivery"]["guarantee"] == "at-least-once"  # Dramatiq acknowledges after
    assert jobs["archive"]["delivery"]["guarantee"] == "at-most-once"  # RQ


def test_json_reads_retry_settings_defaults_and_dead_configuration(project: Path) -> None:
    jobs = {row["name"]: row for row in _jobs_json(project)["jobs"]}
    retry = jobs["send_invoice"]["retry"]
    assert retry["live"] is True and retry["from_default"] is False
    assert (retry["max_retries"], retry["bounded"], retry["on"], retry["backoff"]) == (3, True, ["Exception"], "exponential")
    assert retry["source"] == "framework" and retry["line"] == 11

    dead = jobs["dead_settings"]["retry"]
    assert dead["live"] is False  # max_retries with nothing that triggers a retry
    assert dead["setting"] == "max_retries=10, retry_backoff=True"

    default = jobs["recount"]["retry"]
    assert default["from_default"] is True and default["live"] is True and default["max_retries"] == 20

    # The retry given at the enqueue call, in another module, by dotted path.
    at_call = jobs["archive"]["retry"]
    assert at_call["setting"].startswith("retry=Retry(max=2")
    assert Path(at_call["path"]).as_posix() == "shop/views.py"
    assert jobs["expire_carts"]["retry"] is None


def test_json_effects_name_the_chain_across_modules(project: Path) -> None:
    jobs = {row["name"]: row for row in _jobs_json(project)["jobs"]}
    assert jobs["send_invoice"]["effects"] == [{
        "kind": "email",
        "chain": ["shop.tasks.send_invoice", "shop.notify.tell_customer", "django.core.mail.send_mail"],
        "confidence": "high",
    }]
    assert jobs["recount"]["effects"] == []


def test_text_inventory(project: Path) -> None:
    result = run_cli(["jobs", "--no-color", "."], project)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "shop/tasks.py:12:5: shop.tasks.send_invoice  [celery task; enqueue]" in out
    assert "retry:   autoretry_for=(Exception,), max_retries=3, retry_backoff=True (up to 3; on Exception; exponential backoff;" in out
    assert "effect:  email: tasks.send_invoice -> notify.tell_customer -> mail.send_mail" in out
    assert "max_retries=10, retry_backoff=True (dead configuration: nothing triggers a retry)" in out
    assert "framework default" in out
    assert "helper" not in out
    assert out.rstrip().endswith("5 jobs (celery 2, custom 1, dramatiq 1, rq 1); 3 retried; 2 with unguarded external effects.")


def test_the_inventory_summarises_through_the_cache(project: Path, tmp_path_factory) -> None:
    """`jobcheck jobs` reads summaries back from the cache (it took three times `check`'s cold
    time on Dagster when it summarised every file again, in one process), and lists the same."""
    folder = tmp_path_factory.mktemp("cache")
    first = _jobs_json(project, "--cache-dir", str(folder))
    assert len(list(folder.rglob("s-*"))) == sum(name.endswith(".py") for name in PROJECT)
    assert _jobs_json(project, "--cache-dir", str(folder), "-j", "1") == first
    assert _jobs_json(project, "--no-cache") == first


def test_check_list_jobs_is_the_same_inventory(project: Path) -> None:
    listed = run_cli(["check", "--list-jobs", "--output-format", "json", "."], project)
    assert listed.exit_code == 0  # an inventory, not findings
    assert json.loads(listed.stdout) == _jobs_json(project)
    text = run_cli(["check", "--list-jobs", "--no-color", "."], project)
    assert text.exit_code == 0 and "shop.tasks.recount  [dramatiq actor; enqueue]" in text.stdout


def test_list_jobs_refuses_other_formats(project: Path) -> None:
    result = run_cli(["check", "--list-jobs", "--output-format", "sarif", "."], project)
    assert result.exit_code == 2
    assert "text or json" in result.stderr


@pytest.mark.parametrize("table, message", [
    ('signals = "shop.signals.hourly"', "`tool.jobcheck.entry-points.signals` must be a list of strings"),
    ('periodic = ["x"]', "unknown key `tool.jobcheck.entry-points.periodic`"),
])
def test_bad_entry_point_configuration_exits_2(tmp_path: Path, table: str, message: str) -> None:
    write_tree(tmp_path, {"pyproject.toml": f"[tool.jobcheck.entry-points]\n{table}\n", "a.py": "x = 1\n"})
    result = run_cli(["jobs", "."], tmp_path)
    assert result.exit_code == 2
    assert message in result.stderr


def test_unparsable_file_is_reported_not_fatal(tmp_path: Path) -> None:
    write_tree(tmp_path, {"broken.py": "def (:\n", "ok.py": "import dramatiq\n\n@dramatiq.actor\ndef a():\n    pass\n"})
    data = _jobs_json(tmp_path)
    assert [row["job"] for row in data["jobs"]] == ["ok.a"]
    assert [u["path"] for u in data["unanalysed"]] == ["broken.py"]


def test_installed_command(project: Path) -> None:
    """The real entry point, in a fresh process, prints the same JSON."""
    done = subprocess.run([sys.executable, "-m", "jobcheck.cli", "jobs", "--format", "json", "."], cwd=project,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert [row["job"] for row in json.loads(done.stdout)["jobs"]] == [
        "shop.tasks.send_invoice", "shop.tasks.dead_settings", "shop.tasks.recount", "shop.tasks.archive",
        "shop.tasks.expire_carts",
    ]


def test_only_jobs_in_the_checked_files_are_listed(project: Path) -> None:
    """Checking some files lists the jobs defined in them; jobs seen only in the modules they
    import (read as context, like their findings) are not listed."""
    result = run_cli(["jobs", "--output-format", "json", "shop/notify.py", "shop/tasks.py"], project)
    rows = json.loads(result.stdout)["jobs"]
    assert {Path(r["path"]).as_posix() for r in rows} == {"shop/tasks.py"}
    # The retry given at the enqueue call lives in views.py, which is not checked here.
    assert {r["name"] for r in rows} == {"send_invoice", "dead_settings", "recount", "expire_carts"}
    result = run_cli(["jobs", "--output-format", "json", "shop/views.py"], project)
    assert json.loads(result.stdout)["jobs"] == []
    assert json.loads(result.stdout)["files"] == 1


TESTDATA = Path(__file__).resolve().parent.parent / "testdata"


@pytest.mark.parametrize("case, expected", [
    # Beat entries by string, by `task.name`, by `.s()` / `.si()`, in a config class, and
    # `add_periodic_task`: each target is scheduled; a task named only by decorator is not.
    ("frameworks/celery/beat_schedule.py", {
        "expire_carts": ("task", ["enqueue", "schedule"]), "weekly_report": ("task", ["enqueue", "schedule"]),
        "ping": ("task", ["enqueue", "schedule"]), "say": ("task", ["enqueue", "schedule"]),
        "rotate_keys": ("task", ["enqueue", "schedule"]), "vacuum": ("task", ["enqueue", "schedule"]),
    }),
    ("frameworks/arq/worker_settings.py", {
        "download": ("task", ["enqueue"]), "notify_partner": ("task", ["enqueue"]), "send_receipt": ("task", ["enqueue"]),
        "send_reminder": ("task", ["enqueue"]), "nightly_report": ("periodic", ["schedule"]),
    }),
    ("frameworks/django_q/default_broker.py", {
        "send_welcome": ("task", ["enqueue"]), "refresh_rates": ("periodic", ["schedule"]),
        "purge_sessions": ("periodic", ["schedule"]), "archive": ("task", ["schedule"]),
        "print_result": ("callback", ["enqueue"]),
    }),
    ("frameworks/django_q/cluster_callbacks.py", {
        "open_context": ("callback", ["enqueue"]), "record_result": ("callback", ["enqueue"]),
        "warm_cache": ("callback", ["enqueue"]), "on_timeout": ("callback", ["enqueue"]), "rebuild": ("task", ["enqueue"]),
    }),
    ("frameworks/temporal/scheduled_through_a_helper.py", {
        "ExportActivities.upload": ("activity", ["enqueue"]), "ExportWorkflow": ("workflow", ["enqueue"]),
    }),
    ("frameworks/callbacks/queue_workers.py", {
        "Runner._worker_loop": ("periodic", ["schedule"]), "process_next": ("step", ["schedule"]),
        "Waiter._collect": ("background", ["start"]), "Scanner.scan_forever": ("periodic", ["schedule"]),
        "Notifier.announce": ("step", ["schedule"]),
    }),
    ("frameworks/callbacks/loop_over_callables.py", {
        "steward_loop": ("periodic", ["schedule"]), "sync_accounts": ("step", ["schedule"]),
        "send_digest": ("step", ["schedule"]), "rotate_keys": ("step", ["schedule"]), "prune": ("step", ["schedule"]),
        "listing_loop": ("periodic", ["schedule"]),
    }),
    ("frameworks/callbacks/runner_given_to_constructor.py", {
        "Scheduler.run_forever": ("periodic", ["schedule"]), "run_job": ("task", ["start"]),
    }),
    ("frameworks/library_decorators/library_bases.py", {
        "HeartbeatTask.run": ("periodic", ["schedule"]), "NightlyReport.execute": ("periodic", ["schedule"]),
    }),
    ("frameworks/callbacks/evaluator_factory.py", {
        "receive_loop": ("periodic", ["schedule"]), "Evaluator.__call__": ("step", ["schedule"]),
        "StoringEvaluator.handle": ("dispatched", ["schedule"]), "PlainEvaluator.handle": ("dispatched", ["schedule"]),
    }),
    ("frameworks/callbacks/handler_getters.py", {
        "poll_loop": ("periodic", ["schedule"]), "process": ("step", ["schedule"]),
        "_handle_download": ("dispatched", ["schedule"]), "_handle_training": ("dispatched", ["schedule"]),
    }),
    ("frameworks/callbacks/loops_exit_when_idle.py", {
        "work_loop": ("periodic", ["schedule"]), "split": ("step", ["schedule"]), "merge": ("step", ["schedule"]),
    }),
    ("frameworks/callbacks/worker_rounds.py", {
        "Dispatcher.serve": ("periodic", ["schedule"]), "Consumer.run": ("periodic", ["schedule"]),
        "Consumer._process": ("task", ["start"]), "FolderWorker.run": ("periodic", ["schedule"]),
        "Engine.reap_expired": ("step", ["schedule"]), "PgWorker.run_once": ("step", ["schedule"]),
        "PgWorker.run_forever": ("periodic", ["schedule"]), "fire_schedule": ("step", ["schedule"]),
        "tick_cron": ("step", ["schedule"]), "PollingWorker._poll_and_execute": ("step", ["schedule"]),
        "PollingWorker._execute_task": ("task", ["start"]), "PollingWorker.start": ("periodic", ["schedule"]),
        "RedisWorker.run": ("periodic", ["schedule"]), "RedisWorker._worker_run": ("step", ["schedule"]),
        "RedisWorker._process_from_queue": ("step", ["schedule"]),
        "scheduler_command": ("periodic", ["schedule"]), "Scheduler.advance": ("step", ["schedule"]),
        "LeasingWorker.run": ("periodic", ["schedule"]), "LeasingWorker.run_once": ("step", ["schedule"]),
        "LeasingWorker._execute": ("step", ["schedule"]), "LeasingWorker._dispatch": ("step", ["schedule"]),
        "ThreadWorker._loop": ("background", ["start"]), "ThreadWorker._run_one": ("step", ["start"]),
        "Driver.run": ("periodic", ["schedule"]), "Driver._tick": ("step", ["schedule"]),
        "Driver._fire_due_schedules": ("step", ["schedule"]), "Driver._reclaim_stale": ("step", ["schedule"]),
        "Beat.run": ("periodic", ["schedule"]), "Beat._step": ("step", ["schedule"]),
        "rescue_stale": ("step", ["schedule"]), "roll_up": ("step", ["schedule"]),
        "OutboxRelay.run": ("periodic", ["schedule"]), "OutboxRelay.publish_pending": ("step", ["schedule"]),
        "OutboxRelay._publish_one": ("step", ["schedule"]),
        "ReportThread.run": ("periodic", ["schedule"]), "send_due_reports": ("step", ["schedule"]),
        "serve_tasks": ("periodic", ["schedule"]), "serve_tasks.<locals>.process_task": ("task", ["start"]),
    }),
    ("frameworks/callbacks/loops_given_suppliers.py", {
        "pipeline_loop": ("periodic", ["schedule"]), "claim_next": ("step", ["schedule"]),
    }),
    ("frameworks/callbacks/queue_entries.py", {
        "Worker.serve": ("periodic", ["schedule"]), "Entry.run": ("step", ["schedule"]),
        "Runner.start": ("periodic", ["schedule"]), "Job.run": ("step", ["schedule"]),
        "Mixed.serve": ("periodic", ["schedule"]), "Ping.run": ("step", ["schedule"]), "Pong.run": ("step", ["schedule"]),
        "drain_reports": ("periodic", ["schedule"]), "Report.send": ("step", ["schedule"]),
    }),
    ("frameworks/celery/beat_scheduler.py", {"ReportingScheduler.tick": ("periodic", ["schedule"])}),
    ("frameworks/dramatiq/middleware_hooks.py", {
        "AdminMiddleware.before_process_message": ("callback", ["enqueue"]),
        "AdminMiddleware.after_process_message": ("callback", ["enqueue"]), "Warmup.after_worker_boot": ("background", ["start"]),
        "TableConsumer.__next__": ("periodic", ["schedule"]),
    }),
    ("frameworks/library_decorators/jobs.py", {
        "job_generate_condensed": ("task", ["enqueue"]), "greet": ("task", ["enqueue"]),
        "send_welcome_email": ("task", ["enqueue"]), "end_trials": ("periodic", ["schedule"]),
        "signup_report": ("periodic", ["schedule"]), "cleanup_old_runs": ("periodic", ["schedule"]),
        "export_user_notes": ("task", ["enqueue"]), "daily_digest": ("periodic", ["schedule"]),
    }),
    ("frameworks/rq/enqueue.py", {
        "push_invoice": ("task", ["enqueue"]), "send_sms_code": ("task", ["enqueue"]),
        "send_newsletter": ("task", ["enqueue"]), "rebuild_search_index": ("periodic", ["schedule"]),
        "notify": ("task", ["schedule"]), "Reports.monthly": ("task", ["enqueue"]),
        "on_failed": ("callback", ["enqueue"]),  # the worker runs it after a failed job
    }),
    # Qt: a timer's `timeout` slot repeats; `QTimer.singleShot` and a started QThread run once, in
    # the background; a single-shot timer's slot and a button's slot are no jobs.
    ("frameworks/qt/widgets.py", {
        "StatusWidget.refresh": ("periodic", ["schedule"]), "StatusWidget.load_remote": ("background", ["start"]),
        "IndexWorker.run": ("background", ["start"]), "Autosave.do_autosave": ("periodic", ["schedule"]),
        "UpdateWorker.check": ("background", ["start"]), "Splash.tick": ("periodic", ["schedule"]),
        "Splash.with_context": ("background", ["start"]), "Fetch.run": ("background", ["start"]),
        "PollThread": ("periodic", ["schedule"]),
    }),
    # The application's own timer API (a closure over the loop's `call_later`, a widget's
    # `timeout_add` handing its method to a runner): re-armed, a period; armed once, started once;
    # armed again only in an except clause, a retry: nothing.
    # Not timers of their own: one arming for the next turn (`soon`), one whose closure re-arms
    # itself (`every`: the closure is the period); a closure that works itself is what starts, and
    # a wrapper's other timer keeps its callback; the callable given by keyword or in a lambda; a
    # single-shot Qt timer made in the function and connected to a slot calling what it was given.
    ("frameworks/timers/own_timer_api.py", {
        "Widget.timer_setup": ("periodic", ["schedule"]), "Widget.show_once": ("background", ["start"]),
        "Loop2.every.<locals>.tick": ("periodic", ["schedule"]),
        "Loop2.fetch_later.<locals>.fetch": ("background", ["start"]), "Loop2._cleanup": ("background", ["start"]),
        "Drain.show": ("background", ["start"]), "Drain.by_keyword": ("background", ["start"]),
        "Drain.by_lambda": ("background", ["start"]), "Backups.create_backup": ("background", ["start"]),
    }),
    # The application's own job decorators: periodic where a schedule keyword flows to them, or
    # where one on the way is named `periodic`; else tasks. One wrapping the function in an object
    # of its own that queues it (`RegisteredTask(func)`, with `enqueue`) makes tasks too, bare or
    # called with options (`partial(queued, ...)`), whatever it is called, or one with a method that
    # sends it to a queue a few calls down (`on_commit(self._send)` -> SQS); one whose object only
    # runs it does not.
    ("projects/shape_own_job_decorators", {
        "send_pending_mail": ("periodic", ["schedule"]), "purge_sessions": ("periodic", ["schedule"]),
        "rebuild_index": ("task", ["enqueue"]), "export_report": ("task", ["enqueue"]),
        "vacuum": ("task", ["enqueue"]), "health_check": ("periodic", ["schedule"]),
        "mirror": ("task", ["enqueue"]), "reindex": ("task", ["enqueue"]), "export_csv": ("task", ["enqueue"]),
        "run_command": ("task", ["enqueue"]), "run_script": ("task", ["enqueue"]),
        "purge_records": ("task", ["enqueue"]), "export_rows": ("task", ["enqueue"]),
        "compact_reports": ("task", ["enqueue"]),
    }),
    # A daemon loop's steps that work beyond the process (a program started, files deleted, a
    # POST) are listed as kind `step`; one that asks, one that computes, a reconnect in an `except`
    # clause are not; of a helper that starts what it is given, what it starts is.
    # Handlers other code registers with an object whose loop (or a task) calls them: dispatched,
    # also kept in a dict or a tuple of each entry (`{"func": func, ...}`, `(func, every)`); those a
    # router starts a task for, through a wrapper awaiting the one chosen, are started work (the
    # wrapper is, where only tests register anything).
    ("projects/shape_registered_handlers", {
        "EventBus._dispatch_forever": ("periodic", ["schedule"]), "EventBus._deliver": ("step", ["schedule"]),
        "Mailer.send_welcome": ("dispatched", ["schedule"]), "Auditor.record": ("dispatched", ["schedule"]),
        "close_invoice": ("task", ["enqueue"]), "charge_card": ("dispatched", ["enqueue"]),
        "record_event": ("dispatched", ["enqueue"]),
        "maintenance_loop": ("periodic", ["schedule"]), "Maintenance.run_due": ("step", ["schedule"]),
        "purge_tokens": ("dispatched", ["schedule"]),
        "mark_offline_nodes": ("dispatched", ["schedule"]), "Uploads.prune_stale": ("dispatched", ["schedule"]),
        "vacuum": ("dispatched", ["schedule"]), "rotate_logs": ("dispatched", ["schedule"]),
        "Deployer.handle_deploy": ("background", ["start"]), "Deployer.handle_stop": ("background", ["start"]),
        "answer_ping": ("background", ["start"]), "Leader._guarded": ("background", ["start"]),
    }),
    # A worker's loop that goes round after an error and after a round that did work (no retry
    # loop), whose round hands each message to an implementation of a protocol the factory is
    # annotated with (by structure: `Courier` lacks `close`).
    ("projects/shape_protocol_destinations", {
        "Worker.run": ("periodic", ["schedule"]), "Worker.run_once": ("step", ["schedule"]),
        "WebhookDestination.deliver": ("dispatched", ["schedule"]),
    }),
    # An anyio task group's `start(f)` starts `f` as `start_soon` does; a base's method that only
    # raises is left to subclasses, whose implementation is started; a server's `start` is not.
    ("projects/shape_task_group_runner", {
        "Runner._watch_jobs": ("background", ["start"]), "SingleRunner._run_actor": ("background", ["start"]),
    }),
    # Programs of the application its code starts as processes (`-m app.worker`, `manage.py
    # sync_mailbox`, `tools/rebuild_index.py`): started work; not `-m pip`.
    ("projects/shape_subprocess_programs", {
        "Command.handle": ("background", ["start"]), "main": ("background", ["start"]),
        "rebuild_all": ("background", ["start"]),
    }),
    # A base class's thread entry enters a loop until stopped whose round is `self.tick()`, left
    # to subclasses that wait in it: the loop is periodic, and each subclass the application
    # makes; one never made is not, nor a loop of that shape whose rounds never wait.
    ("projects/shape_executor_base_loop", {
        "BackgroundExecutor._entry": ("background", ["start"]), "BackgroundExecutor.loop": ("periodic", ["schedule"]),
        "Heartbeat": ("periodic", ["schedule"]), "Sweeper": ("periodic", ["schedule"]),
        "Spinner._entry": ("background", ["start"]),
    }),
    ("projects/shape_namespace_package", {
        "render_report": ("task", ["enqueue"]), "purge_reports": ("task", ["enqueue"]),
        "main": ("periodic", ["schedule"]), "flush_outbox": ("step", ["schedule"]),
    }),
    ("projects/shape_loop_steps", {
        "ScanDaemon.run": ("periodic", ["schedule"]), "ScanDaemon.start_queued_scans": ("step", ["schedule"]),
        "ScanDaemon.clean_forgotten_scans": ("step", ["schedule"]), "ScanDaemon.notify_watchers": ("step", ["schedule"]),
        "ScanDaemon.refresh_cache": ("task", ["start"]), "ScanDaemon.flush_outbox": ("step", ["schedule"]),
        "worker_loop": ("periodic", ["schedule"]), "remove_orphans": ("step", ["schedule"]),
    }),
    # Tryton: the methods its scheduled actions name ("account.invoice|post_invoices") are
    # periodic; one queued through `cls.__queue__` is a task.
    ("frameworks/tryton/scheduled.py", {
        "Queue.clean": ("periodic", ["schedule"]), "Invoice.post_invoices": ("periodic", ["schedule"]),
        "Invoice.send_to_partner": ("task", ["enqueue"]),
    }),
    # Handlers Google Cloud pushes to, by the deliverer's headers they (or a decorator guarding
    # them) read: a push queue's tasks, Cloud Scheduler's and App Engine cron's runs; not a
    # middleware's hook nor a view reading another header.
    ("frameworks/cloud_push/handlers.py", {
        "send_receipt": ("task", ["enqueue"]), "reindex": ("task", ["enqueue"]),
        "nightly_report": ("periodic", ["schedule"]), "purge_sessions": ("periodic", ["schedule"]),
    }),
    # Work a task hands to a pool and waits for (`as_completed`, `.result()`, a pool's `map`) is a unit of its work
    # (dispatched, with the task's framework); work it does not wait for is started in the
    # background; a request handler's pool is no job's.
    ("projects/shape_pool_work", {
        "mirror": ("task", ["enqueue"]), "upload": ("dispatched", ["enqueue"]),
        "checksum": ("dispatched", ["enqueue"]), "notify_later": ("background", ["start"]),
        "publish": ("task", ["enqueue"]), "thumbnail": ("dispatched", ["enqueue"]),
        "reindex_shard": ("dispatched", ["enqueue"]),
    }),
    # An in-house runner's loop picks the executor a row's kind names from a module-level table:
    # each executor is a unit of its work (dispatched); not the entry of a table of one, nor a
    # table only a request reads.
    ("projects/shape_runner_table", {
        "work_forever": ("periodic", ["schedule"]), "run_one": ("step", ["schedule"]),
        "claim_next": ("step", ["schedule"]),  # (its claim writes a row each round)
        "send_invoice": ("dispatched", ["schedule"]), "purge_exports": ("dispatched", ["schedule"]),
    }),
    ("frameworks/taskiq/broker_tasks.py", {
        "post_webhook": ("task", ["enqueue"]), "send_digest": ("task", ["enqueue"]),
        "refresh_cache": ("periodic", ["enqueue", "schedule"]), "export_orders": ("task", ["enqueue"]),
    }),
])
def test_framework_testdata_kinds_and_triggers(case: str, expected: dict) -> None:
    result = run_cli(["jobs", "--output-format", "json", case], TESTDATA)
    rows = json.loads(result.stdout)["jobs"]
    assert {r["name"]: (r["kind"], r["triggers"]) for r in rows} == expected


def test_retry_settings_read_from_framework_testdata() -> None:
    rows = {r["name"]: r for r in json.loads(run_cli(
        ["jobs", "--output-format", "json", "frameworks/arq/worker_settings.py", "frameworks/huey/tasks.py",
         "frameworks/taskiq/no_middleware.py", "frameworks/django_q/orm_broker.py"], TESTDATA).stdout)["jobs"]}
    # arq: the worker's max_tries=10, a function's own max_tries=1, cron's default of 1.
    assert rows["download"]["retry"]["max_retries"] == 9 and rows["download"]["retry"]["on"] == []
    assert rows["send_reminder"]["retry"]["max_retries"] == 0
    assert rows["nightly_report"]["retry"]["from_default"] is True
    # huey: `raise RetryTask` with retries=0 retries without a bound; a task that never raises it is not retried.
    assert rows["notify_all"]["retry"]["live"] is True and rows["notify_all"]["retry"]["bounded"] is False
    assert rows["send_welcome"]["retry"]["live"] is False
    assert rows["push_order"]["retry"]["failure_handler"] == "SIGNAL_ERROR handler"
    # taskiq: a retry label with no retry middleware configures nothing.
    assert rows["send_invite"]["retry"] is None
    # django-q2 ORM broker: redelivery up to max_attempts=3, every `retry` seconds.
    assert (rows["send_invoice"]["retry"]["max_retries"], rows["send_invoice"]["retry"]["delay"]) == (2, 120.0)
    assert rows["send_survey"]["retry"]["max_retries"] == 0


def test_two_packages_with_one_name_list_each_job_once(tmp_path: Path) -> None:
    """Example folders that are separate applications, both with a package called `proj`."""
    app = "from celery import Celery\n\napp = Celery('proj')\n\n\n@app.task\ndef debug_task():\n    pass\n"
    tasks = "from .celery import app\n\n\n@app.task\ndef add(x, y):\n    return x + y\n"
    write_tree(tmp_path, {
        "one/proj/__init__.py": "", "one/proj/celery.py": app,
        "two/proj/__init__.py": "", "two/proj/celery.py": "from celery import Celery\n\napp = Celery('proj')\n",
        "two/proj/tasks.py": tasks,
    })
    rows = _jobs_json(tmp_path)["jobs"]
    assert sorted((Path(r["path"]).as_posix(), r["name"]) for r in rows) == [
        ("one/proj/celery.py", "debug_task"), ("two/proj/tasks.py", "add"),
    ]


def test_a_framework_that_fails_is_named_and_the_listing_exits_2(project: Path, monkeypatch) -> None:
    """The other frameworks' jobs are listed; the failure is not hidden behind exit 0."""
    from jobcheck.frameworks import timers

    def fail(self, project):
        raise RuntimeError("scan failed")

    monkeypatch.setattr(timers.Timers, "find_registrations", fail)
    result = run_cli(["jobs", "--output-format", "json", "--no-cache", "."], project)
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["errors"] == [{"where": "framework timer", "error": "RuntimeError: scan failed"}]
    assert "shop.tasks.send_invoice" in {row["job"] for row in data["jobs"]}
    assert "internal error in framework timer" in result.stderr


@pytest.mark.parametrize("hook, what", [("find_steps", "loop steps"), ("find_started", "background starts")])
def test_a_framework_failing_to_list_steps_or_starts_is_named_and_the_others_are_listed(
        tmp_path: Path, monkeypatch, hook: str, what: str) -> None:
    from jobcheck.frameworks import background_loops

    def fail(self, project):
        raise RuntimeError("scan failed")

    monkeypatch.setattr(background_loops.BackgroundLoops, hook, fail)
    root = write_tree(tmp_path, STARTED)
    result = run_cli(["jobs", "--output-format", "json", "--no-cache", "."], root)
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["errors"] == [{"where": f"framework loop ({what})", "error": "RuntimeError: scan failed"}]
    kinds = {row["name"]: row["kind"] for row in data["jobs"]}
    assert kinds["Cog.refresh_forever"] == "periodic"  # the jobs are still listed, and what else was found
    assert ("Cog.refresh" in kinds) == (hook != "find_steps") and ("Cog.restore" in kinds) == (hook != "find_started")


def test_a_file_jobcheck_fails_to_summarise_and_a_failed_link_are_named(project: Path, monkeypatch) -> None:
    """A bug while reading one file, or while linking the project, makes the listing incomplete: it
    says so and exits 2, as `check` does (JC002)."""
    from jobcheck.analysis import summary
    from jobcheck.engine import pipeline

    real = summary.Summarizer.run

    def flaky(self, *args, **kwargs):
        if self.mod.path.endswith("tasks.py"):
            raise RuntimeError("summary failed")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(summary.Summarizer, "run", flaky)
    result = run_cli(["jobs", "--output-format", "json", "--no-cache", "."], project)
    assert result.exit_code == 2, result.stderr
    errors = json.loads(result.stdout)["errors"]
    assert [Path(e["where"]).name for e in errors] == ["tasks.py"] and "summary failed" in errors[0]["error"]
    monkeypatch.setattr(summary.Summarizer, "run", real)

    def broken(*args, **kwargs):
        raise RuntimeError("link failed")

    monkeypatch.setattr(pipeline, "build_project", broken)
    result = run_cli(["jobs", "--no-cache", "."], project)
    assert result.exit_code == 2 and "link failed" in result.stderr


def test_a_helper_handing_its_parameter_to_an_executor_starts_what_its_callers_pass(tmp_path: Path) -> None:
    """Not when the caller waits for it (`.result()`), nor through `run_in_executor` (awaited)."""
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/sync.py": """
import asyncio
from concurrent.futures import ThreadPoolExecutor

import requests

POOL = ThreadPoolExecutor(4)


async def run_sync(func, *args):
    return await asyncio.get_running_loop().run_in_executor(None, func, *args)


def run_blocking(func, *args):
    return POOL.submit(func, *args)


def fetch_prices(symbol):
    return requests.get("https://prices.example", params={"s": symbol}).json()


def fetch_rates(symbol):
    return requests.get("https://rates.example", params={"s": symbol}).json()


def warm_cache():
    requests.post("https://cache.example/warm")


async def handler(symbol):
    return await run_sync(fetch_prices, symbol)


def view(symbol):
    return run_blocking(fetch_rates, symbol).result()


def start():
    run_blocking(warm_cache)
""",
    })
    rows = _jobs_json(tmp_path)["jobs"]
    assert [(r["name"], r["kind"]) for r in rows] == [("warm_cache", "background")]


def test_folders_without_init_below_a_package_keep_its_name(tmp_path: Path) -> None:
    """`app/db/queue/cleanup.py` with no `__init__.py` in `db/` or `queue/` is the namespace module
    `app.db.queue.cleanup`: an import of it by that name reaches its job."""
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/db/queue/cleanup.py": "import requests\n\n\nclass Cleanup:\n    def purge(self):\n"
                                   "        requests.delete('https://logs.example/old')\n",
        "app/server.py": "from apscheduler.schedulers.background import BackgroundScheduler\n\n"
                         "from app.db.queue.cleanup import Cleanup\n\nscheduler = BackgroundScheduler()\n"
                         "scheduler.add_job(Cleanup().purge, 'interval', hours=1)\n",
    })
    rows = _jobs_json(tmp_path)["jobs"]
    assert [(Path(r["path"]).as_posix(), r["name"]) for r in rows] == [("app/db/queue/cleanup.py", "Cleanup.purge")]


HOOKS = {
    "app/__init__.py": "",
    "app/workers.py": """
import logging
import threading
import time

import requests

log = logging.getLogger(__name__)


class BaseWorker(threading.Thread):
    def run(self):
        while True:
            self.before_round()
            self.work()
            time.sleep(30)

    def before_round(self):
        pass

    def work(self):
        raise NotImplementedError


class Pusher(BaseWorker):
    def before_round(self):
        log.debug("round")  # logs only: no work, not a job

    def work(self):
        requests.post("https://a.example/push")


class Syncer(BaseWorker):
    def before_round(self):
        requests.get("https://a.example/lease")

    def work(self):
        requests.post("https://a.example/sync")


def start():
    Pusher().start()
    Syncer().start()
""",
}


def test_each_hook_a_subclass_implements_is_listed_with_its_own_effects(tmp_path: Path) -> None:
    root = write_tree(tmp_path, HOOKS)
    rows = {row["function"]: row for row in _jobs_json(root)["jobs"]}
    assert sorted(rows) == ["app.workers.BaseWorker.run", "app.workers.Pusher.work", "app.workers.Syncer.before_round",
                            "app.workers.Syncer.work"]
    assert [e["chain"][-1] for e in rows["app.workers.Pusher.work"]["effects"]] == ["requests.post"]


DEFERRED_STARTS = {
    "app/__init__.py": "",
    "app/startup.py": """
import asyncio

from tornado.ioloop import IOLoop


async def discover_images():
    print("scan the image folder")


async def auto_open_projects():
    print("open the projects marked auto-open")


async def reconnect():
    print("connect to the compute node")


def not_a_coroutine():
    print("called now, not started")


def start(app):
    loop = asyncio.get_event_loop()
    loop.call_later(5, asyncio.create_task, discover_images())
    loop.call_soon(asyncio.ensure_future, auto_open_projects())
    loop.call_later(1, print, not_a_coroutine())
    IOLoop.current().spawn_callback(reconnect)
""",
}


def test_tasks_started_later_by_a_timer_or_an_ioloop_callback_are_listed_as_background(tmp_path: Path) -> None:
    root = write_tree(tmp_path, DEFERRED_STARTS)
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    assert sorted(rows) == ["auto_open_projects", "discover_images", "reconnect"]
    assert {(r["framework"], r["kind"]) for r in rows.values()} == {("background", "background")}


ONE_SHOTS_AND_THREADS = {
    "app/__init__.py": "",
    "app/examples/demo.py": """
import threading
import time

import requests


def post_with_retries():
    for attempt in range(3):
        try:
            return requests.post("https://example.example/")
        except requests.ConnectionError:
            time.sleep(1)


class DemoPoller(threading.Thread):
    def run(self):
        print("an example's thread")


DemoPoller().start()
threading.Timer(5, print).start()
""",
    "app/later.py": """
import contextvars
import sched
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from threading import Thread

import gevent
import requests
from tornado.ioloop import IOLoop
from twisted.internet import reactor, task


class HealTimer:
    def __init__(self, vnf, handler):
        self.vnf = vnf
        self.handler = handler
        self.timer = threading.Timer(30, self.expire)
        self.timer.start()

    def expire(self):
        requests.post("https://nfvo.example/heal", json={"vnf": self.vnf})


def stop_run():
    requests.post("https://runner.example/stop")


def on_done(future):
    requests.post("https://status.example/done")


def notify(binding):
    requests.post("https://notify.example/", json=binding)


def on_event(event):
    print(event)


def connect():
    requests.get("https://feed.example/stream")


def drain():
    requests.post("https://queue.example/drain")


def report_once():
    requests.post("https://status.example/report")


def connect_relay(hint):
    requests.post("https://relay.example/connect", json={"hint": hint})


def spawn_quit(run_time, listeners, future):
    gevent.spawn_later(run_time, stop_run)
    sched.scheduler(time.time, time.sleep).enter(30, 1, report_once)
    IOLoop.current().add_future(future, lambda f: on_done(f))
    reactor.callLater(2, lambda: notify({"id": 1}))
    task.deferLater(reactor, 2.0, connect_relay, "relay-1")
    reactor.callLater(3, print, "not the application's")
    # A lambda that only names a function, or calls its own parameter, runs none of ours.
    reactor.callLater(1, lambda: listeners.remove(on_event))
    reactor.callLater(1, lambda f: f(), print)
    # Armed again after a failure (a retry), or for the next turn: no background work of its own.
    try:
        connect()
    except ConnectionError:
        threading.Timer(5, connect).start()
    reactor.callLater(0, drain)


class DagRunner:
    def run(self):
        ctx = contextvars.copy_context()
        threading.Thread(target=lambda: ctx.run(self._monitor)).start()

    def _monitor(self):
        requests.get("https://k8s.example/pods")


class NetworkThread(Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.abort = False

    def run(self):
        self._loop()

    def _loop(self):
        while not self.abort:
            requests.get("https://server.example/poll")
            time.sleep(1)


class ContextThread(Thread):
    def run(self):
        print("entering the application's context")
        super().run()


def execute_query(sql):
    requests.post("https://db.example/query", json={"sql": sql})


def start_query(sql):
    ContextThread(target=execute_query, args=(sql,)).start()


class Prompt(Thread):
    def run(self):
        while True:
            line = input()
            requests.post("https://cli.example/", data=line)


def async_call(func):
    def inner(*args, **kwargs):
        threading.Thread(target=func, args=args, kwargs=kwargs, daemon=True).start()
    return inner


def logged(func):
    def inner(*args, **kwargs):
        print("calling", func)
        return func(*args, **kwargs)
    return inner


@async_call
def send_notification(subscription, body):
    requests.post(subscription, json=body)


@logged
def render(body):
    return str(body)


POOL = ThreadPoolExecutor(2)


def submit_task(task):
    def _run():
        try:
            task()
        except Exception:
            print("failed")

    POOL.submit(_run)


def fetch_async(url, callback):
    def _fetch():
        callback(requests.post(url).json())

    POOL.submit(_fetch)


def on_data(data):
    print(data)


def refresh():
    fetch_async("https://feed.example/", on_data)


def prune_snapshots():
    def _prune():
        requests.delete("https://store.example/snapshots")

    return {"task": submit_task(_prune)}


class EventLoop:
    def __init__(self, aioloop):
        self.aioloop = aioloop

    def register_callback(self, callback, *args):
        def _wrapper():
            try:
                callback(*args)
            except Exception:
                print("failed")

        POOL.submit(_wrapper)

    def delay_callback(self, delay, callback, *args):
        return self.aioloop.call_later(delay, self.register_callback, partial(callback, *args))


class JobQueue:
    def __init__(self, loop: EventLoop):
        self.loop = loop

    def print_done(self):
        self.loop.delay_callback(5, self._pop_job)

    def _pop_job(self):
        requests.post("https://printer.example/next")


class Events:
    def schedule(self, delay, callback, repeat=False):
        print("keeps", delay, callback, repeat)


class Transfers:
    def __init__(self, events):
        self.events = events
        self.network = NetworkThread()
        self.prompt = Prompt()

    def start(self):
        self.network.start()
        self.prompt.start()
        self.events.schedule(delay=180, callback=self.save, repeat=True)
        self.events.schedule(delay=15, callback=self.timeout)

    def save(self):
        requests.put("https://store.example/transfers")

    def timeout(self):
        print("timed out")
""",
}


def test_one_shot_timers_lambdas_and_thread_classes_are_started_in_the_background(tmp_path: Path) -> None:
    root = write_tree(tmp_path, ONE_SHOTS_AND_THREADS)
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    background = {name for name, row in rows.items() if row["kind"] == "background"}
    # A one-shot timer's callback (threading, gevent, twisted; a lambda's call), a thread's target
    # through a lambda and `Context.run`, a thread class the application constructs.
    assert background == {"HealTimer.expire", "stop_run", "notify", "DagRunner._monitor", "Prompt.run", "report_once", "on_done",
                          "send_notification",  # under a decorator of the application's own that starts it
                          "prune_snapshots.<locals>._prune",  # what a helper's closure runs, not the closure
                          "execute_query",  # the target of a thread class that runs `Thread.run`
                          "Transfers.timeout",  # the application's scheduler, told a delay and no period
                          "fetch_async.<locals>._fetch",  # a closure that works itself, not what it hands the result to
                          "JobQueue._pop_job",  # what a one-shot timer's callback is handed to run
                          "connect_relay"}  # twisted's deferLater(clock, delay, f, *args)
    # A thread class whose `run` hands over to a loop of its own: that loop is the periodic job,
    # the `run` no second one (not even a background one).
    assert (rows["NetworkThread._loop"]["framework"], rows["NetworkThread._loop"]["kind"]) == ("loop", "periodic")
    assert "NetworkThread.run" not in rows and "NetworkThread" not in rows
    assert not any(row["kind"] == "retried" for row in rows.values())  # an example's retry loop is the example's
    # The application's scheduler, told to repeat: a periodic job.
    assert (rows["Transfers.save"]["framework"], rows["Transfers.save"]["kind"]) == ("timer", "periodic")


EDGES_OF_STARTS_AND_LOOPS = {
    "app/__init__.py": "",
    "app/edges.py": """
import threading
import time

import requests
from tornado.ioloop import IOLoop


def timed(func):
    def inner(*args):
        t = threading.Thread(target=func, args=args)
        t.start()
        t.join(5)  # waits for it: a timeout around the call, not background work
    return inner


def async_call(func):
    def inner(*args):
        print(", ".join(str(a) for a in args))  # a string's join is no thread's
        threading.Thread(target=func, args=args).start()
    return inner


@timed
def slow_report(body):
    requests.post("https://reports.example/", json=body)


@async_call
def notify(body):
    requests.post("https://notify.example/", json=body)


class Tracker:
    def __init__(self):
        self.handlers = {}

    def add_future(self, key, handler):
        self.handlers[key] = handler


TRACKER = Tracker()


def on_event(key):
    print(key)


def send_when_connected(connection, message):
    if connection.ws is None:
        IOLoop.current().add_future(connection.ws_future, lambda f: send_when_connected(connection, message))
    else:
        connection.ws.write_message(message)


def wire(events, unknown):
    TRACKER.add_future("k", on_event)  # the application's own `add_future`: it only keeps the handler
    events.schedule(delay=0, callback=on_event)  # no delay: not started later
    unknown.enter(5, 1, on_event)  # not the standard library's `sched`


def post_with_growing_waits(body):
    for attempt in range(1, 6):
        try:
            return requests.post("https://hooks.example/", json=body)
        except requests.ConnectionError:
            time.sleep(attempt)


def post_with_listed_waits(body, delays):
    for delay in delays:
        try:
            return requests.post("https://hooks.example/", json=body)
        except requests.ConnectionError:
            time.sleep(delay)


def post_unless_invalid(body):
    for attempt in range(3):
        try:
            return requests.post("https://hooks.example/", json=body)
        except ValueError:
            raise
        except requests.Timeout:
            print("timed out")
            continue


def send_with_retries(body):
    for attempt in range(3):
        try:
            return requests.post("https://hooks.example/", json=body)
        except requests.ConnectionError:
            time.sleep(2 ** attempt)


def send_later(body):
    threading.Thread(target=send_with_retries, args=(body,)).start()


class Uploader(threading.Thread):
    def run(self):
        requests.put("https://files.example/upload")


class NightlyUploader(Uploader):
    pass


def upload_tonight():
    NightlyUploader().start()  # runs the `run` it inherits
""",
}


def test_what_is_started_and_how_a_retry_loop_is_read_at_the_edges(tmp_path: Path) -> None:
    root = write_tree(tmp_path, EDGES_OF_STARTS_AND_LOOPS)
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    # (`add_future` re-armed from its own callback waits for a connection again: no period.)
    assert {name for name, row in rows.items() if row["kind"] == "background"} == {"notify", "send_with_retries",
                                                                                 "Uploader.run", "send_when_connected"}
    # A function started in the background stays background, and shows its own retry loop.
    assert rows["send_with_retries"]["retry"]["source"] == "loop"
    retried = {name: row["retry"] for name, row in rows.items() if row["kind"] == "retried"}
    assert retried["post_with_growing_waits"]["backoff"] == "linear"  # `sleep(attempt)` over a range
    assert retried["post_with_listed_waits"]["backoff"] is None  # as the sequence says
    # What goes round (`continue` does) is retried; what is raised at once is not.
    assert retried["post_unless_invalid"]["on"] == ["requests.Timeout"]


def test_a_library_task_starter_known_by_name_starts_the_coroutine_it_is_given(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "bridge/__init__.py": "",
        "bridge/user.py": """
import requests
from mautrix.util import background_task


class User:
    async def post_login(self):
        requests.post("https://matrix.example/login")

    def start(self):
        background_task.create(self.post_login())

    def create(self):
        return User()  # a method named `create`: no starter
""",
    })
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    assert {name for name, row in rows.items() if row["kind"] == "background"} == {"User.post_login"}


def test_a_coroutine_wrapper_that_awaits_what_it_is_given_starts_that_coroutine(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "svc/__init__.py": "",
        "svc/futures.py": """
import asyncio
import logging

import requests


async def safe_wrapper(coro):
    try:
        return await coro
    except Exception:
        logging.exception("background task failed")


def safe_ensure_future(coro):
    return asyncio.ensure_future(safe_wrapper(coro))


async def announce(text):
    result = await asyncio.sleep(0)
    requests.post("https://chat.example/messages", json={"text": text})


class Poller:
    def start(self):
        safe_ensure_future(self.refresh())
        asyncio.create_task(safe_wrapper(self.flush_once()))
        asyncio.create_task(announce("started"))  # awaits no parameter: the work itself

    async def refresh(self):
        requests.post("https://status.example/refresh")

    async def flush_once(self):
        requests.post("https://status.example/flush")
""",
    })
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    assert {name for name, row in rows.items() if row["kind"] == "background"} == {
        "Poller.refresh", "Poller.flush_once", "announce"}


def test_a_starter_named_by_a_module_variable_starts_what_its_callers_pass(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "node/__init__.py": "",
        "node/refs.py": """
import asyncio


class _Referencer:
    def __init__(self):
        self.tasks = set()

    def create_task(self, coroutine, *, name=None):
        task = asyncio.create_task(coro=coroutine, name=name)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task


_referencer = _Referencer()
create_referenced_task = _referencer.create_task
""",
        "node/peer.py": """
import requests

from node.refs import create_referenced_task


class Peer:
    def start(self):
        self.task = create_referenced_task(self._sync())

    async def _sync(self):
        requests.post("https://peer.example/sync")
""",
    })
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    assert {name for name, row in rows.items() if row["kind"] == "background"} == {"Peer._sync"}


def test_a_decorator_factory_whose_wrapper_hands_the_function_to_a_thread_runner_starts_it(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "agent/__init__.py": "",
        "agent/base.py": """
import functools
import logging
import threading

LOG = logging.getLogger(__name__)


class CommandFailed(Exception):
    pass


def summarise(result):
    return {"result": str(result)[:100]}


class AsyncCommandResult:
    def __init__(self, name, params, execute_method, agent=None):
        self.name, self.params, self.execute_method, self.agent = name, params, execute_method, agent
        self.thread = threading.Thread(target=self.run, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def run(self):
        try:
            self.result = summarise(self.execute_method(**self.params))
        except Exception as e:
            LOG.exception("command %s failed", self.name)
            self.error = CommandFailed(str(e))
        finally:
            if self.agent:
                self.agent.force_heartbeat()


def async_command(name):
    def decorate(func):
        @functools.wraps(func)
        def wrapper(self, **params):
            return AsyncCommandResult(name, params, functools.partial(func, self), agent=self.agent).start()
        return wrapper
    return decorate
""",
        "agent/standby.py": """
import requests

from agent.base import async_command


class Standby:
    agent = None

    @async_command("prepare_image")
    def prepare_image(self, image_url):
        requests.post("https://conductor.example/images", json={"url": image_url})

    def status(self):
        return requests.get("https://conductor.example/status").json()
""",
    })
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    assert {name for name, row in rows.items() if row["kind"] == "background"} == {"Standby.prepare_image"}


def test_threads_started_for_each_callable_of_a_literal_tuple_start_each_of_them(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "runner/__init__.py": "",
        "runner/service.py": """
import queue
import threading

import requests


class Runner:
    def __init__(self):
        self.finished = queue.Queue()

    def start(self):
        for target in (self._listen, self._complete):
            threading.Thread(target=target, daemon=True).start()
        for name in ("a", "b"):
            threading.Thread(target=self._report, args=(name,)).start()
        target = self._report  # rebound: the loop's callables are gone
        target("c")

    def _listen(self):
        requests.post("https://hub.example/listen")

    def _complete(self):
        job = self.finished.get()
        requests.post("https://hub.example/complete", json=job)

    def _report(self, name):
        requests.post("https://hub.example/report", json={"name": name})
""",
    })
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    assert {name for name, row in rows.items() if row["kind"] == "background"} == {
        "Runner._listen", "Runner._complete", "Runner._report"}


def test_what_a_coroutine_wrapper_or_a_runner_does_itself_keeps_it_the_work(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/work.py": """
import asyncio
import threading

import aiohttp
import requests

LOOP = asyncio.new_event_loop()


async def upload_when_ready(fut, url):
    data = await fut  # awaits what it is given, then works itself: the work
    async with aiohttp.ClientSession() as session:
        await session.post(url, json=data)


def schedule_upload(loop, url):
    fut = loop.create_future()
    asyncio.ensure_future(upload_when_ready(fut, url))


async def fetch_status():
    requests.post("https://status.example/ping")


def run_sync(coro):
    return asyncio.run_coroutine_threadsafe(coro, LOOP).result()  # its callers wait: no background work


def handle_request():
    run_sync(fetch_status())


def _raw(url):
    requests.post(url)


def _send(url):
    _raw(url)


def _do(url):
    _send(url)


def upload(url):
    _do(url)


def report(percent):
    print(percent)


class Uploader:
    def __init__(self, url, on_progress):
        self.url = url
        self.on_progress = on_progress

    def run(self):
        upload(self.url)  # effects four calls down: its own work, beside the callback
        self.on_progress(100)


threading.Thread(target=Uploader("https://files.example/up", report).run).start()


def do_parallel(func, items):
    from concurrent.futures import ThreadPoolExecutor, as_completed
    with ThreadPoolExecutor() as pool:
        futures = [pool.submit(func, item) for item in items]
        for future in as_completed(futures):
            yield future.result()  # a fan-out beside the caller: what it runs is started


def push(item):
    requests.post("https://files.example/push", json=item)


def push_all(items):
    return list(do_parallel(push, items))
""",
    })
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    assert {name for name, row in rows.items() if row["kind"] == "background"} == {
        "upload_when_ready", "Uploader.run", "push"}


def test_a_subclass_named_only_in_a_classs_own_table_runs_its_hooks(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/workers.py": """
import threading
import time

import requests


class BaseWorker(threading.Thread):
    def run(self):
        while True:
            self.work()
            time.sleep(30)

    def work(self):
        raise NotImplementedError


class Pusher(BaseWorker):
    def work(self):
        requests.post("https://a.example/push")


class Unlisted(BaseWorker):
    def work(self):
        requests.post("https://a.example/never")


class Orchestrator:
    _workers = {"push": Pusher}

    def start(self, kind):
        self._workers[kind]().start()
""",
    })
    rows = {row["function"]: row for row in _jobs_json(root)["jobs"]}
    assert "app.workers.Pusher.work" in rows and "app.workers.Unlisted.work" not in rows


def test_tenacity_policies_written_at_calls_are_read_as_written(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "ops/__init__.py": "",
        "ops/sync.py": """
import httpx
import requests
import tenacity
from tenacity import (AsyncRetrying, Retrying, retry_if_exception_type, stop_after_attempt, stop_after_delay,
                      stop_never, wait_fixed)


def push(body):
    requests.post("https://partner.example/push", json=body)


def pull(body):
    requests.post("https://partner.example/pull", json=body)


def forever(body):
    requests.post("https://partner.example/forever", json=body)


def ping():
    requests.get("https://partner.example/ping")


def run(body):
    Retrying(stop=stop_after_delay(60), wait=wait_fixed(2))(push, body)
    retryer = Retrying(stop=stop_after_attempt(2))
    patient = Retrying()
    patient(ping)
    retryer(pull, body)   # the policy of the local called, not of the last retrier made
    tenacity.retry(forever)(body)


def only_timeouts(body):
    for attempt in Retrying(retry=retry_if_exception_type(requests.Timeout), stop=stop_never):
        with attempt:
            requests.post("https://partner.example/timeouts", json=body)


async def upload(body):
    async with httpx.AsyncClient() as client:
        async for attempt in AsyncRetrying(stop=stop_after_attempt(4), wait=wait_fixed(3)):
            with attempt:
                await client.post("https://partner.example/upload", json=body)
""",
    })
    retried = {row["name"]: row["retry"] for row in _jobs_json(root)["jobs"] if row["kind"] == "retried"}
    assert set(retried) == {"push", "pull", "forever", "upload", "ping", "only_timeouts"}
    # Told which failures go round, and never to stop.
    assert retried["only_timeouts"]["on"] == ["requests.Timeout"] and not retried["only_timeouts"]["bounded"]
    assert retried["push"]["bounded"] and retried["push"]["max_retries"] is None  # bounded by time
    assert retried["pull"]["max_retries"] == 1
    assert not retried["forever"]["bounded"]  # the bare decorator: forever, at once
    # The async block: three retries after the first attempt, three seconds apart, on any failure.
    assert (retried["upload"]["max_retries"], retried["upload"]["backoff"], retried["upload"]["delay"]) == (3, "constant", 3.0)
    assert retried["upload"]["on"] is None and retried["upload"]["source"] == "loop"


def test_a_started_subclass_runs_the_methods_it_overrides_that_its_inherited_run_calls(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "farm/__init__.py": "",
        "farm/threads.py": """
import sys
import threading


class ExceptionalThread(threading.Thread):
    exc_info = None

    def run(self):
        try:
            self.tryRun()
        except Exception:
            self.exc_info = sys.exc_info()
            raise

    def tryRun(self):
        super().run()
""",
        "farm/scaler.py": """
import threading

import requests
from farm.threads import ExceptionalThread


class ScalerThread(ExceptionalThread):
    def tryRun(self):
        requests.post("https://cloud.example/nodes", json={"count": 2})


class IdleThread(ExceptionalThread):
    def describe(self):
        return "idle"


class Worker(threading.Thread):
    def run(self):
        self.prepare()
        requests.post("https://cloud.example/uploads", json={})

    def prepare(self):
        pass


class Uploader(Worker):
    def prepare(self):
        print("ready")


def start_scaling():
    ScalerThread().start()
    IdleThread().start()
    Uploader().start()
""",
    })
    background = {row["name"] for row in _jobs_json(root)["jobs"] if row["kind"] == "background"}
    # The subclass's `tryRun` is the work started; a subclass overriding nothing `run` calls runs
    # the base's `run` (its `target`); a `run` that works beside the hook it leaves to subclasses
    # (`prepare`, then its own POST) is the work, whatever the subclass overrides.
    assert background == {"ScalerThread.tryRun", "ExceptionalThread.run", "Worker.run"}


def test_a_nested_thread_class_started_through_self_and_a_thread_fed_by_a_queue_are_jobs(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "grid/__init__.py": "",
        "grid/batch.py": """
import queue
import threading
import time

import requests


class BatchSystem:
    class Submitter(threading.Thread):
        def __init__(self, jobs):
            super().__init__(daemon=True)
            self.jobs = jobs

        def run(self):
            while True:
                job = self.jobs.get()
                requests.post("https://grid.example/submit", json=job)
                time.sleep(1)

    class Reporter(threading.Thread):
        def run(self):
            requests.post("https://grid.example/report", json={})

    def __init__(self):
        self.jobs = queue.Queue()
        self.submitter = self.Submitter(self.jobs)
        self.submitter.start()
        self.Reporter().start()


class Runner(threading.Thread):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def run(self):
        while True:
            self.func()
            time.sleep(5)


def poll():
    requests.post("https://grid.example/poll")


Runner(poll).start()
""",
    })
    jobs = {(row["name"], row["kind"]) for row in _jobs_json(root)["jobs"]}
    # `self.Submitter(...)` is the nested class; taking work from the queue it was given is not
    # running what it was given (a runner such as `Runner(poll)` runs `poll`, not itself).
    assert jobs == {("BatchSystem.Submitter", "periodic"), ("BatchSystem.Reporter.run", "background"),
                    ("poll", "periodic")}


def test_what_is_beside_the_application_is_told_below_the_analysed_folder_not_by_where_it_lives(tmp_path: Path) -> None:
    # The checkout lives in a folder named `docs`: its code is still the application's; its own
    # `examples/` folder is not.
    files = {
        "docs/proj/app/__init__.py": "",
        "docs/proj/app/reports.py": """
import threading

import requests


class Upload(threading.Thread):
    def run(self):
        requests.post("https://reports.example/uploads", json={})


def start():
    Upload().start()
""",
    }
    files["docs/proj/examples/demo/__init__.py"] = ""
    files["docs/proj/examples/demo/reports.py"] = files["docs/proj/app/reports.py"]
    root = write_tree(tmp_path, files)
    for where, given in ((root, "docs/proj"), (root / "docs" / "proj", "."), (Path("/"), str(root / "docs" / "proj"))):
        result = run_cli(["jobs", "--output-format", "json", given], where)
        assert result.exit_code == 0, result.stderr
        started = {row["path"].replace("\\", "/").rpartition("docs/proj/")[2] for row in json.loads(result.stdout)["jobs"]}
        assert started == {"app/reports.py"}, (where, given)
    # Pointed at the examples' folder (alone or beside another, in any order), they are what is
    # analysed; a file of theirs given alone is judged as the tree around it judges it.
    for given in (["docs/proj/examples"], ["docs/proj/app", "docs/proj/examples"], ["docs/proj/examples", "docs/proj/app"]):
        result = run_cli(["jobs", "--output-format", "json", *given], root)
        started = {row["path"].rpartition("docs/proj/")[2] for row in json.loads(result.stdout)["jobs"]}
        assert "examples/demo/reports.py" in started, given
    result = run_cli(["jobs", "--output-format", "json", "docs/proj/examples/demo/reports.py"], root)
    assert json.loads(result.stdout)["jobs"] == []


def test_a_loop_left_only_when_a_caller_asks_and_rq_s_own_enqueue_call_on_a_queue_of_unknown_type(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "farm/__init__.py": "",
        "farm/manager.py": """
import time

import requests


class Manager:
    def run(self, under_test=False):
        while True:
            requests.post("https://farm.example/heartbeat", json={})
            if under_test:
                break
            time.sleep(10)

    def drain(self, once=True):
        while True:
            requests.post("https://farm.example/drain", json={})
            if once:
                break
            time.sleep(10)
""",
        "farm/reports.py": """
import django_rq


def build(request_id):
    return request_id


def enqueue(view, request_id):
    return view.queue.enqueue_call(func=build, args=(request_id,))
""",
    })
    jobs = {(row["name"], row["kind"]) for row in _jobs_json(root)["jobs"]}
    # `if under_test: break` is a test's choice (its default is False): the loop runs until
    # stopped; `if once: break` with `once=True` runs once by default.
    assert jobs == {("Manager.run", "periodic"), ("build", "task")}


def test_a_command_s_loop_left_when_no_period_is_given_and_a_thread_left_on_a_stop_message(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "sched/__init__.py": "",
        "sched/cli.py": """
import time
from queue import Empty

import click
import requests

TERMINATE = object()


@click.command()
@click.option("--period", default=0)
def runner(period):
    while True:
        requests.post("https://sched.example/run-ready", json={})
        if not period:
            break
        time.sleep(period)


def cleanup(interval):
    while True:
        requests.post("https://sched.example/cleanup", json={})
        if interval:
            time.sleep(interval * 60)
        else:
            break


class TaskManager:
    def poll(self):
        requests.post("https://sched.example/poll", json={})

    def sleep(self):
        time.sleep(20)


def main_loop(conf, manager_class=None):
    if not manager_class:
        tm = TaskManager()
    else:
        tm = manager_class()
    while 1:
        tm.poll()
        tm.sleep()


def drain(period):
    while True:
        sent = requests.post("https://sched.example/drain", json={})
        if not sent:
            break
        time.sleep(period)


def sender(commands):
    while True:
        try:
            msg = commands.get(block=True, timeout=1)
        except Empty:
            msg = None
        if msg is TERMINATE:
            return
        requests.post("https://sched.example/visits", json={})


def smart_tests(devices):
    while True:
        for device in list(devices):
            requests.post("https://sched.example/smart", json={"device": device})
            devices.remove(device)
        if not devices:
            break
        time.sleep(30)


def wait_stopped(ec2):
    while True:
        state = ec2.describe_instances()["State"]
        if state == "stopped":
            return
        requests.post("https://sched.example/nudge", json={})
        time.sleep(5)


def run_round(jobs):
    for job in list(jobs):
        requests.post("https://sched.example/job", json=job)
        jobs.remove(job)


def run_pending(jobs):
    while True:
        run_round(jobs)
        if not jobs:
            break
        time.sleep(30)


def waiter(results):
    while True:
        status = results.get(timeout=1)
        if status == "done":
            return status
        requests.post("https://sched.example/poll", json={})
""",
    })
    jobs = {(row["name"], row["kind"]) for row in _jobs_json(root)["jobs"]}
    # `if not period: break` is the caller's choice, the same in every round: given a period the
    # loop runs until stopped. `if not sent: break` reads what the round did, and `if not devices:`
    # a parameter the rounds empty (there, or in a helper it is handed to): the work done once. A
    # state polled for (`if state == "stopped": return`) is no stop message.
    # A stop message taken from the loop's command queue stops it; a result it waits for ends it.
    # An object made in one arm as a class of the project and in the other by a class given:
    # what the first arm says it is (`tm.sleep()` waits).
    assert jobs == {("runner", "periodic"), ("cleanup", "periodic"), ("sender", "periodic"), ("main_loop", "periodic"),
                    ("TaskManager.poll", "step")}  # main_loop's round (its `tm.sleep()` is the wait, no step)


def test_a_timer_subclass_of_the_application_s_own_and_a_hook_class_named_by_its_dotted_path(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "game/__init__.py": "",
        "game/scripts.py": """
import requests
from twisted.internet.task import LoopingCall


class ExtendedLoopingCall(LoopingCall):
    def start(self, interval, now=True, start_delay=None):
        return LoopingCall.start(self, interval, now)


class OwnInitCall(LoopingCall):
    def __init__(self, interval):
        LoopingCall.__init__(self, self.tick)
        self.every = interval

    def tick(self):
        pass


class ScriptBase:
    def start(self, interval):
        self.task = ExtendedLoopingCall(self._step)
        self.task.start(interval)
        self.other = OwnInitCall(5)

    def _step(self):
        self.at_repeat()

    def at_repeat(self):
        pass


def create_script(path, interval):
    return path, interval


class SimpleTask:
    def __init__(self, interval):
        self.interval = interval
        self._task = LoopingCall(self.run)

    def run(self):
        raise NotImplementedError


class ScannerTask(SimpleTask):
    def __init__(self, scanner):
        self.scanner = scanner
        super().__init__(120)

    def run(self):
        self.scanner()


class Tracker:
    def __init__(self):
        self.task = ScannerTask(scanner=self.scan)

    def scan(self):
        requests.post("https://game.example/scan", json={})


def start_tracking():
    return Tracker()
""",
        "game/gametime.py": """
import requests

from .scripts import ScriptBase, create_script


class TimeScript(ScriptBase):
    def at_repeat(self):
        requests.post("https://game.example/tick", json={})


class UnusedScript(ScriptBase):
    def at_repeat(self):
        requests.post("https://game.example/unused", json={})

    def restart(self):
        print("restarting game.gametime.PrintedScript")
        return create_script("game.gametime.UnusedScript", interval=10)


class PrintedScript(ScriptBase):
    def at_repeat(self):
        requests.post("https://game.example/printed", json={})


def log_it():
    print("game.gametime.PrintedScript")


def schedule(seconds):
    return create_script("game.gametime.TimeScript", interval=seconds)
""",
    })
    jobs = {(row["function"], row["kind"]) for row in _jobs_json(root)["jobs"]}
    # `ExtendedLoopingCall(self._step)` repeats `_step` as twisted's LoopingCall does (a subclass
    # with a constructor of its own takes something else, `OwnInitCall(5)`, and hands the timer's
    # constructor its callback itself: `tick`); `_step` hands its work to `at_repeat`,
    # implemented by the script class the application names by its dotted path (not the unused one,
    # named only in its own method, nor one a print names).
    # A timer of the application's own that runs an abstract `run`: its subclass's `run` calls the
    # callable it was constructed with, which is the job (`Tracker.scan`).
    assert jobs == {("game.gametime.TimeScript.at_repeat", "periodic"), ("game.scripts.Tracker.scan", "periodic"),
                    ("game.scripts.OwnInitCall.tick", "periodic")}


def test_tasks_chosen_at_run_time_from_a_table_in_if_arms_or_by_a_helper_s_callers(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "ops/__init__.py": "",
        "ops/tasks.py": """
import requests


def sync_roles(remote_pk):
    requests.post("https://galaxy.example/roles/sync", json={"remote": remote_pk})


def sync_collections(remote_pk):
    requests.post("https://galaxy.example/collections/sync", json={"remote": remote_pk})


def sync_git(remote_pk):
    requests.post("https://galaxy.example/git/sync", json={"remote": remote_pk})


def mark(pks):
    requests.post("https://galaxy.example/mark", json=pks)


def never_dispatched(pks):
    requests.post("https://galaxy.example/never", json=pks)
""",
        "ops/views.py": """
from pulpcore.plugin.tasking import dispatch

from .tasks import mark, never_dispatched, sync_collections, sync_git, sync_roles


class RepositoryViewSet:
    def sync(self, request, remote):
        if remote.kind == "role":
            sync_func = sync_roles
        elif remote.kind == "collection":
            sync_func = sync_collections
        else:
            sync_func = sync_git
        return dispatch(sync_func, exclusive_resources=[remote])

    def _handle_mark_task(self, request, task_function):
        return dispatch(task_function, exclusive_resources=[request])

    def mark(self, request):
        return self._handle_mark_task(request, mark)

    def export(self, request, full):
        if full:
            export = never_dispatched
            export(request)
        else:
            export = mark
            dispatch(export, exclusive_resources=[request])
""",
        "ops/stages.py": """
import requests
from pulpcore.plugin.stages import Stage


class BaseStage(Stage):
    async def run(self):
        raise NotImplementedError


class FirstStage(BaseStage):
    async def run(self):
        requests.get("https://galaxy.example/index")

    def describe(self):
        return "first"
""",
        "ops/models.py": """
import requests
from pulpcore.plugin.models import Repository


class MavenRepository(Repository):
    def finalize_new_version(self, new_version):
        requests.post("https://index.example/rebuild", json={"version": new_version.number})


class Catalog:
    def finalize_new_version(self, new_version):
        return new_version
""",
        "ops/worker.py": """
import oslo_messaging as messaging
import requests


class ShellHandler:
    def build(self, ctxt, app_id):
        requests.post("https://ci.example/shell", json={"app": app_id})


class DockerHandler:
    def build(self, ctxt, app_id):
        requests.post("https://ci.example/docker", json={"app": app_id})


def main(conf):
    handlers = {"shell": ShellHandler, "docker": DockerHandler}
    endpoints = [handlers[conf.handler]()]
    server = messaging.get_rpc_server(None, messaging.Target(topic="worker"), endpoints)
    server.start()
""",
    })
    jobs = {(row["function"], row["kind"]) for row in _jobs_json(root)["jobs"]}
    # The function chosen in the arms of an `if`, each, after the `if` (inside an arm, that arm's);
    # what a helper's callers pass to the parameter it dispatches; a pipeline stage's `run` (not an
    # abstract one) and a repository's version hook (not another class's method of that name); each
    # endpoint class a table holds.
    assert jobs == {
        ("ops.tasks.sync_roles", "task"), ("ops.tasks.sync_collections", "task"), ("ops.tasks.sync_git", "task"),
        ("ops.tasks.mark", "task"), ("ops.stages.FirstStage.run", "background"),
        ("ops.models.MavenRepository.finalize_new_version", "background"),
        ("ops.worker.ShellHandler.build", "task"), ("ops.worker.DockerHandler.build", "task"),
    }


def test_setup_py_console_scripts_written_as_an_ini_string_are_read(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "setup.py": """
from setuptools import setup

setup(
    name="desk",
    entry_points=\"\"\"
        [console_scripts]
        desk-purge = desk.purge:main
        desk-serve = desk.purge:serve
    \"\"\",
)
""",
        "desk/__init__.py": "",
        "desk/purge.py": """
import requests


def main():
    requests.delete("https://desk.example/tickets", params={"older_than": "30d"})


def serve():
    print("serving")
""",
        "docs/ops.rst": "Purge old tickets regularly from cron with ``desk-purge --days 30``.\n",
    })
    jobs = {(row["function"], row["kind"]) for row in _jobs_json(root)["jobs"]}
    assert jobs == {("desk.purge.main", "periodic")}


def test_a_callback_made_by_a_factory_of_the_application_is_the_function_it_returns(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "listen/__init__.py": "",
        "listen/consumer.py": """
import threading

import pika
import requests


def get_on_message(backend):
    def on_message(channel, method, properties, body):
        requests.post("https://sched.example/events", data=body)
        channel.basic_ack(delivery_tag=method.delivery_tag)

    return on_message


def make_worker(url):
    def work():
        requests.post(url, json={})

    return work


def make_nothing(url):
    return print


def listen(backend):
    channel = pika.BlockingConnection().channel()
    channel.basic_consume(queue="events", on_message_callback=get_on_message(backend))
    threading.Thread(target=make_worker("https://sched.example/work")).start()
    threading.Thread(target=make_nothing("x")).start()
    channel.start_consuming()
""",
    })
    jobs = {(row["function"], row["kind"]) for row in _jobs_json(root)["jobs"]}
    assert jobs == {("listen.consumer.get_on_message.<locals>.on_message", "consumer"),
                    ("listen.consumer.make_worker.<locals>.work", "background")}


def test_a_job_handing_work_to_a_family_s_hook_on_an_object_of_no_known_type_runs_each_implementation(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "relay/__init__.py": "",
        "relay/handlers.py": """
import abc

import requests


class BaseHandler(abc.ABC):
    @abc.abstractmethod
    def can_handle(self, event): ...

    @abc.abstractmethod
    def handle(self, event): ...

    def create_report(self, event):
        raise NotImplementedError


class BuildHandler(BaseHandler):
    def can_handle(self, event):
        return event["topic"] == "build"

    def handle(self, event):
        requests.post("https://ci.example/builds", json=event)

    def create_report(self, event):
        return {"build": event}


class ReleaseHandler(BaseHandler):
    def can_handle(self, event):
        return event["topic"] == "release"

    def handle(self, event):
        requests.post("https://ci.example/releases", json=event)


class Step:
    def execute(self, context):
        pass


class CopyStep(Step):
    def execute(self, context):
        requests.post("https://ci.example/copies", json=context)


class Filter:
    def filter(self, qs, value):
        raise NotImplementedError


class DateFilter(Filter):
    def filter(self, qs, value):
        requests.get("https://ci.example/dates", params={"after": value})
""",
        "relay/tasks.py": """
import importlib

from celery import shared_task

HANDLERS = ["relay.handlers:BuildHandler", "relay.handlers:ReleaseHandler"]


def load(paths):
    for path in paths:
        module, _, name = path.partition(":")
        yield getattr(importlib.import_module(module), name)


@shared_task
def process(event, cursor):
    for handler_class in load(HANDLERS):
        handler = handler_class()
        if not handler.can_handle(event):
            continue
        report = handler.create_report(event)
        handler.handle(event)
    cursor.execute("UPDATE events SET done = 1")
    event.objects.filter(kind="build").filter(done=False)
""",
    })
    jobs = {(row["name"], row["kind"]) for row in _jobs_json(root)["jobs"]}
    # `handler.handle(event)` runs each handler's `handle`: listed beside the job, whose effects
    # they are; asking (`can_handle`) or making (`create_report`) hands no work on;
    # `cursor.execute` is no `Step` (not named after one), nor is a queryset's `.filter(...)
    # .filter(...)` a `Filter` (the method called on what it returned).
    assert jobs == {("process", "task"), ("BuildHandler.handle", "dispatched"), ("ReleaseHandler.handle", "dispatched")}
    process = next(row for row in _jobs_json(root)["jobs"] if row["name"] == "process")
    assert {effect["chain"][-1] for effect in process["effects"]} == {"requests.post"}
    assert any("handlers.BuildHandler.handle" in effect["chain"][1] for effect in process["effects"])


def test_a_retry_loop_a_job_runs_is_listed_whatever_it_repeats(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "watch/__init__.py": "",
        "watch/cluster.py": """
import time

from celery import shared_task


def cluster_version(client):
    for attempt in range(3):
        try:
            return client.info()["version"]
        except ConnectionError:
            if attempt == 2:
                raise
            time.sleep(3)


def wait_for_database(db):
    while True:
        try:
            return db.ping()
        except ConnectionError:
            time.sleep(1)


@shared_task
def check_rules(client):
    return cluster_version(client)
""",
    })
    rows = {row["name"]: row for row in _jobs_json(root)["jobs"]}
    # The job's helper retries a read: listed as retried (no rule reads it: nothing it repeats
    # is an effect); a readiness wait no job runs is not listed.
    assert set(rows) == {"check_rules", "cluster_version"}
    assert rows["cluster_version"]["kind"] == "retried" and rows["cluster_version"]["retry"]["source"] == "loop"


def test_classes_with_no_method_resolution_order_do_not_stop_the_run(tmp_path: Path) -> None:
    # `class BrokenHandler(BaseHandler, MiddleHandler)` with `MiddleHandler(BaseHandler)`: Python refuses it (no C3 order); the
    # analysis keeps each base once and goes on, hooks and all.
    root = write_tree(tmp_path, {
        "svc/__init__.py": "",
        "svc/workers.py": """
import requests
from celery import shared_task


class BaseHandler:
    def handle(self, item):
        raise NotImplementedError


class MiddleHandler(BaseHandler):
    pass


class BrokenHandler(BaseHandler, MiddleHandler):
    def handle(self, item):
        requests.post("https://svc.example/items", json=item)


@shared_task
def work(item, handler):
    handler.handle(item)
""",
    })
    result = run_cli(["check", "--select", "ALL", "--output-format", "json", "."], root)
    assert "JC002" not in result.stdout, result.stdout
    jobs = {(row["name"], row["kind"]) for row in _jobs_json(root)["jobs"]}
    assert jobs == {("work", "task"), ("BrokenHandler.handle", "dispatched")}


def test_a_runner_that_decorates_what_it_is_given_with_a_loop_of_its_own_makes_it_periodic(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "ops/__init__.py": "",
        "ops/common.py": """
import functools


def rounds(sleep_time):
    while True:
        yield sleep_time


def work_queue(once, stop, sleep_time):
    def decorate(fnc):
        @functools.wraps(fnc)
        def generator():
            schedule = rounds(sleep_time)
            delay = next(schedule, None)
            while delay is not None:   # its test counts nothing; it leaves when told to stop
                if stop.is_set():
                    break
                stop.wait(delay)
                try:
                    result = fnc()
                    if result is not None:
                        yield result
                except Exception:
                    if once:
                        raise
                try:
                    delay = next(schedule)
                except StopIteration:
                    break              # a way out when the rounds end, not after the work
        return generator
    return decorate


def run_daemon(once, stop, sleep_time, run_once_fnc):
    daemon = work_queue(once=once, stop=stop, sleep_time=sleep_time)(run_once_fnc)
    for _ in daemon():
        pass


def run_first(stop, fnc):
    while not stop.is_set():
        fnc()
        break                          # runs it once
""",
        "ops/reaper.py": """
import functools
import threading

import requests
from ops.common import run_daemon, run_first

STOP = threading.Event()


def reap(limit):
    requests.delete("https://storage.example/old", params={"limit": limit})


def warm_up():
    requests.get("https://storage.example/warm")


def reaper(once=False):
    run_daemon(once=once, stop=STOP, sleep_time=60, run_once_fnc=functools.partial(reap, limit=10))
    run_first(STOP, warm_up)
""",
    })
    kinds = {row["name"]: row["kind"] for row in _jobs_json(root)["jobs"]}
    assert kinds.get("reap") == "periodic"
    assert "warm_up" not in kinds or kinds["warm_up"] != "periodic"


def test_what_a_test_retries_is_no_work_of_the_application(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "shop/__init__.py": "",
        "shop/partner.py": """
import requests
from tenacity import retry, stop_after_attempt


@retry(stop=stop_after_attempt(3))
def push(order):
    requests.post("https://partner.example/orders", json=order)
""",
        "shop/tasks/__init__.py": "",
        "shop/tasks/test.py": """
import requests
from tenacity import retry


@retry
def smoke(order):  # an application task that happens to live in `test.py`
    requests.post("https://partner.example/smoke", json=order)
""",
        "shop/test/__init__.py": """
import requests
from tenacity import retry


@retry
def reset(url):  # a test package's helper, written in its `__init__.py`
    requests.post(url + "/reset", json={})
""",
        "tests/__init__.py": "",
        "tests/integration/__init__.py": "",
        "tests/integration/client.py": """
import requests
from tenacity import retry, stop_after_attempt


class Server:
    @retry(stop=stop_after_attempt(5))
    def post(self, path, body):
        return requests.post("http://localhost:8000" + path, json=body)
""",
    })
    retried = {row["name"] for row in _jobs_json(root)["jobs"] if row["kind"] == "retried"}
    assert retried == {"push", "smoke"}


def test_a_started_thread_that_asks_what_it_was_given_for_values_does_the_work_itself(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "relay/__init__.py": "",
        "relay/subscriber.py": """
import threading

import pika


class Subscriber(threading.Thread):
    def __init__(self, credentials_fn, on_done):
        super().__init__(daemon=True)
        self._credentials_fn = credentials_fn
        self._on_done = on_done

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        pass

    def run(self):
        params = pika.URLParameters(self._credentials_fn())  # a value asked for, not the work
        connection = pika.BlockingConnection(params)
        connection.channel().basic_publish(exchange="", routing_key="ready", body=b"up")


class Runner(threading.Thread):
    def __init__(self, work):
        super().__init__(daemon=True)
        self._work = work

    def run(self):
        self._work()


def ship():
    print("shipping")


def credentials():
    return "amqp://localhost"


def main():
    with Subscriber(credentials, on_done=None):
        Runner(ship).start()
""",
    })
    background = {row["name"] for row in _jobs_json(root)["jobs"] if row["kind"] == "background"}
    assert "Subscriber.run" in background
    assert "Runner.run" not in background  # it runs what it was given


def test_a_thread_started_on_an_abstract_method_runs_each_used_subclass_implementation(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "farm/__init__.py": "",
        "farm/managers.py": """
import _thread as thread
from abc import ABC, abstractmethod

import requests


class BaseManager(ABC):
    def launch(self, job_id):
        thread.start_new_thread(self._monitor, (job_id,))

    @abstractmethod
    def _monitor(self, job_id):
        ...


class Manager(BaseManager):
    def _monitor(self, job_id):
        requests.post("https://galaxy.example/status", json={"job": job_id})


def serve(job_id):
    Manager().launch(job_id)
""",
    })
    background = {row["name"] for row in _jobs_json(root)["jobs"] if row["kind"] == "background"}
    assert background == {"Manager._monitor"}


def test_a_future_with_a_done_callback_is_an_executors_whatever_holds_it(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "archive/__init__.py": "",
        "archive/packages.py": """
import requests


class Package:
    @staticmethod
    def trigger_workflow(package_id):
        requests.post("https://storage.example/ingest", json={"id": package_id})

    @staticmethod
    def notify_done(future):
        requests.post("https://hooks.example/done", json={"ok": future.exception() is None})

    @staticmethod
    def forget(future):
        print("done")


def create_package(executor, form, package_id):
    future = executor.submit(Package.trigger_workflow, package_id)   # `executor` has no type here
    future.add_done_callback(Package.notify_done)
    future.add_done_callback(Package.forget)                         # reaches no effect: bookkeeping
    form.submit(Package.trigger_workflow)                            # any other `submit`: nothing started
""",
    })
    background = {row["name"] for row in _jobs_json(root)["jobs"] if row["kind"] == "background"}
    assert background == {"Package.trigger_workflow", "Package.notify_done"}


def test_where_the_checkout_lives_does_not_make_its_code_a_tests(tmp_path: Path) -> None:
    checkout = tmp_path / "tests" / "checkout"  # a CI workspace under a folder named `tests`
    checkout.mkdir(parents=True)
    write_tree(checkout, {
        "shop/__init__.py": "",
        "shop/partner.py": """
import requests
from tenacity import retry, stop_after_attempt


@retry(stop=stop_after_attempt(3))
def push(order):
    requests.post("https://partner.example/orders", json=order)
""",
    })
    result = run_cli(["jobs", "--output-format", "json", str(checkout)], tmp_path)
    assert result.exit_code == 0, result.stderr
    assert {row["name"] for row in json.loads(result.stdout)["jobs"] if row["kind"] == "retried"} == {"push"}


def test_a_retry_helper_reached_through_a_method_that_passes_the_callable_on(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "stage/__init__.py": "",
        "stage/retry.py": """
import time
from itertools import count


def _retry_over_time(fun, max_retries=None, interval=1.0):
    for retries in count():
        try:
            return fun()
        except OSError:
            if max_retries is not None and retries >= max_retries:
                raise
            time.sleep(interval)


class RetryActionExecutor:
    def __init__(self, max_retries=None):
        self.max_retries = max_retries

    def execute(self, action, description=None):
        return _retry_over_time(action, max_retries=self.max_retries)
""",
        "stage/post.py": """
import requests
from stage.retry import RetryActionExecutor


class Collector:
    def __init__(self):
        self.executor = RetryActionExecutor(max_retries=5)

    def collect(self, path):
        def upload():
            requests.post("https://galaxy.example/outputs", files={"file": open(path, "rb")})

        self.executor.execute(upload, "upload")
""",
    })
    retried = {row["name"] for row in _jobs_json(root)["jobs"] if row["kind"] == "retried"}
    assert "Collector.collect.<locals>.upload" in retried


def test_a_poll_for_a_result_is_told_as_one_not_as_a_failure_retried(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "client/__init__.py": "",
        "client/poll.py": """
import requests
from tenacity import retry, retry_if_result, wait_fixed


@retry(retry=retry_if_result(lambda status: status == "PROCESSING"), wait=wait_fixed(1))
def wait_until_complete(package_id):
    return requests.get(f"https://a3m.example/status/{package_id}").json()["status"]
""",
    })
    result = run_cli(["check", "--no-cache", "--select", "JC202", "--output-format", "json", "--exit-zero", "."], root)
    findings = json.loads(result.stdout)
    findings = findings if isinstance(findings, list) else findings["findings"]
    assert [f["code"] for f in findings] == ["JC202"]
    assert "on a result it does not accept" in findings[0]["message"]
    assert "A result that never comes" in findings[0]["message"] and "on any exception" not in findings[0]["message"]


def test_a_coroutine_held_in_a_local_then_started_is_started(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "bot/__init__.py": "",
        "bot/manager.py": """
import asyncio

import httpx


class Manager:
    async def poll(self):
        async with httpx.AsyncClient() as client:
            await client.post("https://api.example/poll")

    def start(self):
        coro = self.poll()
        asyncio.create_task(coro)


async def refresh():
    async with httpx.AsyncClient() as client:
        await client.post("https://api.example/refresh")


def build():
    return {"a": 1}


def main():
    job = refresh()
    asyncio.ensure_future(job)
    handler = build()  # a value, not a coroutine: nothing started
    asyncio.get_event_loop().call_soon(print, handler)
""",
    })
    background = {row["name"] for row in _jobs_json(root)["jobs"] if row["kind"] == "background"}
    assert background == {"Manager.poll", "refresh"}


def test_a_callable_handed_through_a_trampoline_is_what_runs(tmp_path: Path) -> None:
    # `LoopingCall(reactor.callInThread, self.reload_rules)` repeats reload_rules;
    # `pool.submit(copy_context().run, self.fetch_profile, ...)` starts fetch_profile once; the
    # submit whose result is waited for (`lookup`) is part of its caller.
    source = Path(__file__).parent.parent / "testdata" / "frameworks" / "timers" / "trampolines.py"
    (tmp_path / "trampolines.py").write_text(source.read_text())
    rows = {row["name"]: row for row in _jobs_json(tmp_path)["jobs"]}
    assert sorted(rows) == ["Consumer.fetch_profile", "Consumer.reload_rules"]
    assert (rows["Consumer.reload_rules"]["framework"], rows["Consumer.reload_rules"]["kind"]) == ("timer", "periodic")
    assert (rows["Consumer.fetch_profile"]["framework"], rows["Consumer.fetch_profile"]["kind"]) == ("background", "background")


def test_a_decorator_applied_in_place_starts_what_it_wraps(tmp_path: Path) -> None:
    # `pool.submit(self.log_errors(self.cleanup), sid)`: the `@wraps(func)` closure the decorator
    # returns runs `cleanup`, which is what is started; a factory whose closure wraps nothing
    # (`make_handler(url)`) starts that closure.
    root = write_tree(tmp_path, {
        "svc/__init__.py": "",
        "svc/expiry.py": """
import functools
import threading
from concurrent.futures import ThreadPoolExecutor

import requests


def make_handler(url):
    def handle():
        requests.post(url)
    return handle


class Expiry:
    def __init__(self):
        self.pool = ThreadPoolExecutor(4)

    def log_errors(self, func):
        @functools.wraps(func)
        def with_logs(*args, **kwargs):
            try:
                return func(*args, **kwargs)
            except Exception:
                print("failed")
        return with_logs

    def cleanup(self, sid):
        requests.delete("https://store.example/" + sid)

    def run(self, sids):
        for sid in sids:
            self.pool.submit(self.log_errors(self.cleanup), sid)
        threading.Thread(target=make_handler("https://hooks.example")).start()
""",
    })
    rows = {row["function"]: (row["framework"], row["kind"]) for row in _jobs_json(root)["jobs"]}
    assert rows == {
        "svc.expiry.Expiry.cleanup": ("background", "background"),
        "svc.expiry.make_handler.<locals>.handle": ("background", "background"),
    }


def test_task_options_built_from_other_dicts_are_read_through_them_and_an_unreadable_one_is_not_guessed(
        tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "opts/__init__.py": "",
        "opts/settings.py": """
import os

DEFAULTS = {"autoretry_for": (ConnectionError,), "max_retries": 7}
BOUND = {**DEFAULTS, **{"bind": True}}
FROM_ENV = {**dict(os.environ.get("TASK_OPTIONS", {})), "autoretry_for": (ConnectionError,)}
""",
        "opts/tasks.py": """
from celery import shared_task

from opts.settings import BOUND, FROM_ENV


@shared_task(**BOUND)
def known(self):
    return 1


@shared_task(**FROM_ENV)
def unknown():
    return 2
""",
    })
    rows = {row["job"]: row["retry"] for row in _jobs_json(root)["jobs"]}
    # `**DEFAULTS` inside BOUND is read through: its 7 retries. FROM_ENV's inner splat cannot be
    # read: the count stays unknown (it could hold `max_retries`), not Celery's default 3.
    assert rows["opts.tasks.known"]["max_retries"] == 7
    assert rows["opts.tasks.unknown"]["max_retries"] is None and rows["opts.tasks.unknown"]["count_from"]


def test_a_finding_in_a_task_a_loop_starts_belongs_to_the_task(tmp_path: Path) -> None:
    # The loop starts a run of `run_job` in every round: a job of its own. A retried send it
    # reaches is its problem first (the loop only starts it), so the finding names it, and the
    # loop that reaches it too is listed after.
    root = write_tree(tmp_path, {
        "agentd/__init__.py": "",
        "agentd/scheduler.py": """
import asyncio


class Scheduler:
    def __init__(self, runner):
        self._runner = runner

    def due(self):
        return []

    async def run_forever(self):
        while True:
            for job in self.due():
                asyncio.create_task(self._run_safely(job))
            await asyncio.sleep(30)

    async def _run_safely(self, job):
        try:
            await self._runner(job)
        except Exception:
            pass
""",
        "agentd/runner.py": """
import asyncio
import smtplib

from agentd.scheduler import Scheduler


def _send_with_retry(message, attempts=3):
    for attempt in range(attempts):
        try:
            smtplib.SMTP("mail.example").sendmail("a@example", ["b@example"], message)
            return
        except OSError:
            if attempt == attempts - 1:
                raise


async def run_job(job):
    _send_with_retry(f"job {job} ran")


if __name__ == "__main__":
    asyncio.run(Scheduler(runner=run_job).run_forever())
""",
    })
    result = run_cli(["check", "--select", "JC201", "--output-format", "json", "--exit-zero", "."], root)
    findings = [f for f in json.loads(result.stdout) if f["code"] == "JC201"]
    assert findings and all(f["job"] == "agentd.runner.run_job" for f in findings), findings
    assert all(f["jobs"] == ["agentd.runner.run_job", "agentd.scheduler.Scheduler.run_forever"] for f in findings)
