# jobcheck-test: select=JC301
# Locks a job takes with no expiry, and the clean idioms beside them.
import redis
import redis_lock
from celery import shared_task
from django.core.cache import cache
from django_redis import get_redis_connection

r = redis.Redis()
LOCK_SECONDS = 600


@shared_task
def lock_without_timeout():
    with r.lock("rebuild-index"):  # expect: JC301
        rebuild()


@shared_task
def lock_with_timeout():
    with r.lock("rebuild-index", timeout=600, blocking_timeout=5):
        rebuild()


@shared_task
def lock_with_timeout_by_position_and_by_name():
    with r.lock("rebuild-index", 600):
        rebuild()
    with r.lock("rebuild-index", timeout=LOCK_SECONDS):
        rebuild()


@shared_task
def lock_with_timeout_none():
    lock = get_redis_connection("default").lock("sync", timeout=None)  # expect: JC301
    if lock.acquire(blocking=False):
        try:
            rebuild()
        finally:
            lock.release()


@shared_task
def third_party_locks():
    with redis_lock.Lock(r, "reports"):  # expect: JC301
        rebuild()
    with redis_lock.Lock(r, "reports", expire=60, auto_renewal=True):
        rebuild()
    with cache.lock("digest"):  # expect: JC301
        rebuild()


@shared_task
def set_if_absent_released():
    if not r.set("sync-accounts", "1", nx=True):  # expect: JC301
        return
    try:
        rebuild()
    finally:
        r.delete("sync-accounts")


@shared_task
def set_if_absent_with_expiry_released():
    taken = r.set("sync-accounts", "1", nx=True, px=600_000)
    if taken:
        rebuild()
        r.delete("sync-accounts")


@shared_task
def set_if_absent_expiry_by_position():
    if r.set("sync-accounts", "1", 600, nx=True):
        rebuild()
        r.delete("sync-accounts")


@shared_task
def setnx_released():
    if r.setnx("import-lock", 1):  # expect: JC301
        rebuild()
        r.delete("import-lock")


@shared_task
def setnx_then_expire():
    if r.setnx("import-lock", 1):
        r.expire("import-lock", 600)
        rebuild()
        r.delete("import-lock")


@shared_task
def marker_meant_to_last(order_id):
    # No release: a key saying the work was done, not a lock.
    if r.set(f"shipped:{order_id}", "1", nx=True):
        rebuild()


@shared_task
def marker_and_another_key_deleted(order_id):
    # The key deleted is another one: the marker is not released, so it is not a lock.
    if r.set("invoiced:daily", "1", nx=True):
        r.delete("stale-totals")


@shared_task
def django_cache_lock(report_id):
    if cache.add("report-lock", "1", timeout=None):  # expect: JC301
        try:
            rebuild()
        finally:
            cache.delete("report-lock")


@shared_task
def django_cache_lock_with_default_timeout(report_id):
    if cache.add("report-lock", "1"):
        try:
            rebuild()
        finally:
            cache.delete("report-lock")


@shared_task
def options_passed_on(options):
    r.set("sync", "1", nx=True, **options)
    r.delete("sync")


def acquire(name):
    # Taken in one helper, released in another: the release is not seen from here (a known gap).
    return r.set(name, "1", nx=True)  # todo-expect: JC301


def release(name):
    r.delete(name)


@shared_task
def through_two_helpers():
    if acquire("weekly"):
        rebuild()
        release("weekly")


def locked_helper(name):
    if r.set(name, "1", nx=True):  # expect: JC301
        r.delete(name)


@shared_task
def through_a_helper():
    locked_helper("nightly")


def rebuild():
    pass


def not_a_job():
    with r.lock("outside-any-job"):
        rebuild()
