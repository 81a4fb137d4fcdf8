# jobcheck-test: select=JC501
"""A thread pool of the application's own: `register(obj)` starts a thread running the object's
`thread_run`. That method of each object registered is a job: periodic when it loops until
stopped, else a background task. The pool is not a job."""
import threading
import time

import requests


class PoolThread(threading.Thread):
    pass


class ThreadPool:
    def __init__(self):
        self.threads = []

    def register(self, obj, daemon=True):
        thread = PoolThread(target=obj.thread_run, daemon=daemon)
        obj.thread = thread
        self.threads.append(thread)

    def start(self):
        for thread in self.threads:
            thread.start()


class Replicator:
    def thread_run(self):  # expect: JC501
        while True:
            requests.post("https://primary.example/changes")
            time.sleep(5)


class Warmup:
    def thread_run(self):  # expect: JC501
        requests.get("https://primary.example/index")


class NeverRegistered:
    def thread_run(self):
        requests.post("https://primary.example/never")


class Server:
    def __init__(self):
        self.pool = ThreadPool()
        self.replicator = Replicator()

    def start(self):
        self.pool.register(self.replicator)
        self.pool.register(Warmup())
        self.pool.start()
