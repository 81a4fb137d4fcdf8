# jobcheck-test: select=JC302
# Celery tasks that take a lease with an expiry, work for an unbounded time, then write with no
# fencing token and no ownership check; and the clean idioms beside them.
import redis
import requests
from celery import shared_task
from django.core.cache import cache
from django.db import connection

from .models import Invoice, Report

r = redis.Redis()
LOCK_SECONDS = 60


@shared_task
def rebuild_report(report_id):
    with r.lock("report", timeout=60):
        rows = requests.get("https://warehouse.example/rows").json()
        Report.objects.filter(id=report_id).update(rows=rows)  # expect: JC302


@shared_task
def invoice_everyone():
    with r.lock("invoices", timeout=LOCK_SECONDS):
        for invoice in Invoice.objects.filter(sent=False):
            invoice.sent = True
            Invoice.objects.filter(id=invoice.id).update(sent=True)  # expect: JC302


@shared_task
def loop_then_write(report_id):
    lock = r.lock("report", timeout=60)
    if not lock.acquire(blocking=False):
        return
    try:
        total = 0
        for line in open("/data/lines.csv"):
            total += len(line.split(","))
        Report.objects.filter(id=report_id).update(total=total)  # expect: JC302
    finally:
        lock.release()


@shared_task
def cache_add_lock(report_id):
    # The Celery cookbook's lock: `cache.add` with an expiry, deleted when done.
    if not cache.add("report-lock", "1", 600):
        return
    try:
        data = requests.get("https://warehouse.example/report").json()
        Report.objects.create(data=data)  # expect: JC302
    finally:
        cache.delete("report-lock")


@shared_task
def set_nx_ex_lock():
    if not r.set("sync", "1", nx=True, ex=300):
        return
    for invoice in Invoice.objects.all():
        requests.post("https://erp.example/invoices", json={"id": invoice.id})  # expect: JC302
    r.delete("sync")


@shared_task
def write_through_a_helper(report_id):
    with r.lock("report", timeout=60):
        rows = fetch_rows()
        store(report_id, rows)  # expect: JC302


def fetch_rows():
    return requests.get("https://warehouse.example/rows").json()


def store(report_id, rows):
    Report.objects.filter(id=report_id).update(rows=rows)


@shared_task
def released_early_on_one_branch(report_id):
    # The release on the early return is not the end of the lock: the one in `finally` is.
    if not r.set("build", "1", nx=True, ex=600):
        r.delete(attempt_key(report_id))
        return
    try:
        data = requests.get("https://warehouse.example/report").json()
        Report.objects.create(data=data)  # expect: JC302
    finally:
        r.delete("build")


def attempt_key(report_id):
    return f"attempt:{report_id}"


# ---- clean: each of these stays quiet ----


@shared_task
def ownership_checked(report_id):
    with r.lock("report", timeout=60) as lock:
        rows = requests.get("https://warehouse.example/rows").json()
        if not lock.owned():
            return
        Report.objects.filter(id=report_id).update(rows=rows)


@shared_task
def extended_before_each_write():
    with r.lock("invoices", timeout=60) as lock:
        for invoice in Invoice.objects.filter(sent=False):
            lock.extend(60)
            Invoice.objects.filter(id=invoice.id).update(sent=True)


@shared_task
def fenced_update(report_id, token):
    with r.lock("report", timeout=60):
        rows = requests.get("https://warehouse.example/rows").json()
        Report.objects.filter(id=report_id, fence_token__lt=token).update(rows=rows, fence_token=token)


@shared_task
def fenced_sql(report_id, token):
    with r.lock("report", timeout=60):
        rows = requests.get("https://warehouse.example/rows").json()
        with connection.cursor() as cursor:
            cursor.execute("UPDATE report SET rows = %s, version = %s WHERE id = %s AND version < %s",
                           [rows, token, report_id, token])


@shared_task
def short_work(report_id):
    # Straight-line work with no loop or network call: it does not outlast the lease.
    with r.lock("report", timeout=60):
        report = Report.objects.get(id=report_id)
        report.total = report.a + report.b
        Report.objects.filter(id=report_id).update(total=report.total)


@shared_task
def upsert_keyed_on_the_work(report_id):
    with r.lock("report", timeout=60):
        rows = requests.get("https://warehouse.example/rows").json()
        Report.objects.update_or_create(id=report_id, defaults={"rows": rows})


@shared_task
def no_expiry(report_id):
    # A lock with no expiry is JC301's business.
    with r.lock("report"):
        rows = requests.get("https://warehouse.example/rows").json()
        Report.objects.filter(id=report_id).update(rows=rows)


@shared_task
def key_checked_before_the_write(report_id, me):
    if not r.set("report-lock", me, nx=True, ex=60):
        return
    rows = requests.get("https://warehouse.example/rows").json()
    if r.get("report-lock") == me:
        Report.objects.filter(id=report_id).update(rows=rows)
    r.delete("report-lock")


@shared_task
def write_before_the_long_work(report_id):
    with r.lock("report", timeout=60):
        Report.objects.filter(id=report_id).update(started=True)
        requests.get("https://warehouse.example/ping")


def not_a_job(report_id):
    with r.lock("report", timeout=60):
        rows = requests.get("https://warehouse.example/rows").json()
        Report.objects.filter(id=report_id).update(rows=rows)
