# jobcheck-test: select=JC301
# Lock files: one that stays on disk when its holder is killed stops every later run; one the
# operating system releases with the process does not.
import fcntl

import filelock
import lockfile
from celery import shared_task


@shared_task
def send_queued_mail():
    lock = lockfile.FileLock("/var/run/send_mail")  # expect: JC301
    lock.acquire(timeout=10)  # a wait for the lock, not an expiry
    try:
        send_all()
    finally:
        lock.release()


@shared_task
def rebuild_soft():
    with filelock.SoftFileLock("/tmp/rebuild.lock"):  # expect: JC301
        send_all()


@shared_task
def rebuild_flock():
    with filelock.FileLock("/tmp/rebuild.lock", timeout=5):  # flock: released when the process dies
        send_all()


@shared_task
def rebuild_fcntl():
    with open("/tmp/rebuild.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        send_all()


def send_all():
    pass
