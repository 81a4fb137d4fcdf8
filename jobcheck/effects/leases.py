"""The catalog of leases and fencing, as data (JC301, JC302, JC303): locks that always expire,
what checks a lock is still held, what fences a write, and what makes work long.

Names are resolved dotted names, as in `catalog`; `*` matches any run of characters.
"""

from __future__ import annotations

# Leases that always expire: the call, the keyword of its expiry, that argument's position, and
# the library's default when none is given. `catalog.LOCK_CALLS` are the locks whose expiry is optional.
LEASE_CALLS = (
    ("pottery.Redlock", "auto_release_time", 2, "10 s"),  # Redlock(key=, masters=, auto_release_time=10)
    ("pottery.redlock.Redlock", "auto_release_time", 2, "10 s"),
    ("sherlock.Lock", "expire", 1, "60 s"),  # sherlock.Lock(name, expire=60)
    ("sherlock.RedisLock", "expire", 1, "60 s"),
    ("sherlock.EtcdLock", "expire", 1, "60 s"),
    ("sherlock.MCLock", "expire", 1, "60 s"),
    ("jobcheck.runtime.*().acquire", "ttl", 1, None),  # a backend's acquire(resource, ttl)
    ("jobcheck.runtime.*().hold", "ttl", 1, None),
)
# Calls on a lock that check it is still held, or push its expiry back: a write right after one is
# the holder's (redis-py `owned`/`extend`/`reacquire`, python-redis-lock `extend`, sherlock
# `renew`, jobcheck.runtime `renew`); on a set-if-absent lock, the same client's `get`/`expire`.
LOCK_OWNERSHIP_CHECKS = ("owned", "extend", "reacquire", "renew")
KEY_OWNERSHIP_CHECKS = ("get", "expire", "pexpire")
# Writes a store refuses from a stale holder: they carry a fencing token the store checks.
FENCED_WRITES = ("jobcheck.runtime.fence", "jobcheck.runtime.fencing.fence", "jobcheck.runtime.fenced_transaction",
                 "jobcheck.runtime.fencing.fenced_transaction", "jobcheck.runtime.*Fence*", "jobcheck.runtime.*FencedScript*")
# Column and field names a conditional write compares to refuse a stale writer.
FENCE_COLUMNS = ("fence", "fencing", "token", "version", "epoch", "generation", "lease")
# Work whose duration the job does not bound: the network, other processes, sleeping.
# `*` here stops at a call's brackets: a response's methods (`requests.get().json`) are not work.
LONG_CALLS = (
    "requests.*", "requests.Session().*", "requests.session().*", "httpx.*", "httpx.Client().*",
    "httpx.AsyncClient().*", "aiohttp.ClientSession().*", "urllib.request.urlopen", "urllib3.PoolManager().*",
    "http.client.*Connection().*", "*.client(*).*", "*.resource(*).*", "smtplib.*().*", "ftplib.*().*",
    "paramiko.*().*", "subprocess.*", "time.sleep", "asyncio.sleep", "gevent.sleep",
)
# Writes to an object store: a stale holder's upload replaces the new holder's.
OBJECT_STORE_WRITES = (
    "*.client(s3).put_object", "*.client(s3).upload_file", "*.client(s3).upload_fileobj", "*.client(s3).copy_object",
    "*.resource(s3).*.put", "*.resource(s3).*.upload_file", "*.resource(s3).*.upload_fileobj",
    "google.cloud.storage.*upload_from_*", "azure.storage.blob.*upload_blob",
    "django.core.files.storage.default_storage.save", "django.core.files.storage.*Storage().save",
)
# A write that is its own key: repeating it leaves one row (an upsert) or nothing new.
UPSERT_METHODS = ("update_or_create", "get_or_create", "on_conflict_do_update", "on_conflict_do_nothing",
                  "prefix_with", "on_duplicate_key_update", "upsert", "replace_one", "update_one")
UPSERT_SQL = r"\bon\s+conflict\b|\bon\s+duplicate\s+key\b|^\s*(merge|upsert|replace)\b|insert\s+or\s+(replace|ignore)"
# Task classes and decorators that keep a job from running while another run holds its lock
# (JC303): celery-once's `QueueOnce`, celery-singleton's `Singleton`, Huey's `lock_task`.
OVERLAP_GUARDS = ("celery_once.QueueOnce", "celery_once.tasks.QueueOnce", "celery_singleton.Singleton",
                  "celery_singleton.singleton.Singleton", "huey.*lock_task")
