"""JC301 lock-without-expiry: code a job runs takes a lock or lease that nothing but its holder
releases. A run that dies holding it — a killed worker, a deploy, an out-of-memory kill — never
runs its `finally`, and every later run finds the lock taken: the job stops, silently.

Three shapes (`locks`): a lock API called with no timeout (`Redis.lock(name)`, python-redis-lock's
`Lock(conn, name)`, django-redis's `cache.lock(name)`), a lock file that stays on disk when its
holder dies (pylockfile's `lockfile.FileLock(path)`, py-filelock's `SoftFileLock`), and a
set-if-absent write with no expiry (`set(..., nx=True)` with no `ex`/`px`, `setnx`,
`cache.add(..., timeout=None)`) that the same client deletes later in the function: taken, the
work, released.
"""

from __future__ import annotations

from ..analysis.names import short
from ..model import Confidence
from .context import CheckContext, event_anchor
from .locks import Lock, locks_in

CODES = ("JC301",)
_REDIS = ("redis.", "valkey.", "aioredis.", "django_redis.", "django.core.cache.")
_DIES = ("if the run dies {when} (a killed worker, a deploy, an out-of-memory kill), nothing releases it and "
         "no later run can take it")


def run(ctx: CheckContext):
    project = ctx.project
    for qualname, fn in ctx.reached_functions():
        for lock in locks_in(project, fn):
            if lock.expiry is not None:
                continue
            message, confidence = _message(lock)
            yield ctx.finding("JC301", event_anchor(project, qualname, lock.index), message, confidence=confidence,
                              job=ctx.job_of(qualname), function=qualname)


def _message(lock: Lock) -> tuple[str, Confidence]:
    if lock.is_file:
        return (f"`{short(lock.name)}` takes a lock with no expiry ({lock.how}): {_DIES.format(when='holding it')}. "
                f"Use a lock the operating system releases with the process (`fcntl.flock`, `filelock.FileLock`) or "
                f"one that expires, and fence the writes it guards with a token", Confidence.HIGH)
    if not lock.is_key:
        return (f"`{short(lock.name)}` takes a lock with no expiry ({lock.how}): {_DIES.format(when='holding it')}. "
                f"Pass `{lock.keyword}=` longer than the work takes, and fence the writes it guards with a token",
                Confidence.HIGH)
    released, line, _ = lock.release
    confidence = Confidence.HIGH if lock.name.startswith(_REDIS) or "Redis()." in lock.name else Confidence.MEDIUM
    return (f"`{short(lock.name)}` takes a lock with no expiry ({lock.how}), released by `{short(released)}` at "
            f"line {line}: {_DIES.format(when='in between')}. Set the expiry in the same call (`ex=`/`px=`, "
            f"`timeout=`), longer than the work takes, and fence the writes it guards with a token", confidence)
