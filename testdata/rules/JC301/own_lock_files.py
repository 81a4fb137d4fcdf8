# jobcheck-test: select=JC301
# A lock class of the application's own (here a copy of pylockfile, as applications vendor it)
# that takes its lock by creating a file or folder only one process can create leaves it behind
# when its holder is killed: every later run finds it taken. One that checks whether the holder
# still lives, or that locks with `flock` (released with the process), does not.
import fcntl
import os
import time

from celery import shared_task


class LockBase:
    def __init__(self, path):
        self.path = path
        self.lock_file = path + ".lock"

    def release(self):
        os.rmdir(self.lock_file)


class MkdirFileLock(LockBase):
    def acquire(self, timeout=None):
        end = time.time() + (timeout or 0)
        while not self.attempt_acquire(end):
            time.sleep(0.1)

    def attempt_acquire(self, end):
        try:
            os.mkdir(self.lock_file)
            return True
        except OSError:
            if time.time() > end:
                raise TimeoutError(self.lock_file)
            return False


class LinkFileLock(LockBase):
    def acquire(self, timeout=None):
        open(self.path + ".unique", "wb").close()
        os.link(self.path + ".unique", self.lock_file)


FileLock = MkdirFileLock


class PidFileLock(LockBase):
    def holder_lives(self):
        with open(os.path.join(self.lock_file, "pid")) as handle:
            try:
                os.kill(int(handle.read()), 0)
            except OSError:
                return False
        return True

    def __enter__(self):
        if os.path.isdir(self.lock_file) and not self.holder_lives():
            self.release()  # left by a holder that died
        self.acquire()
        return self

    def __exit__(self, *exc):
        self.release()

    def acquire(self, timeout=None):
        os.mkdir(self.lock_file)


class FlockLock(LockBase):
    def acquire(self, timeout=None):
        self.handle = open(self.lock_file, "w")
        fcntl.flock(self.handle, fcntl.LOCK_EX)


@shared_task
def emit_notices():
    lock = FileLock("/var/run/emit_notices")  # expect: JC301
    lock.acquire(timeout=-1)
    try:
        send_all()
    finally:
        lock.release()


@shared_task
def link_locked():
    lock = LinkFileLock("/var/run/link_locked")  # expect: JC301
    lock.acquire()
    try:
        send_all()
    finally:
        lock.release()


@shared_task
def pid_locked():
    with PidFileLock("/var/run/pid_locked"):
        send_all()


@shared_task
def flock_locked():
    lock = FlockLock("/var/run/flock_locked")
    lock.acquire()
    send_all()


def send_all():
    pass
