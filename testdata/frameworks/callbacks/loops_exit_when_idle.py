# jobcheck-test: select=JC501
# A worker's loop that returns only when its caller asks it to leave once idle (`exit_idle_sec`,
# off by default: 0), however deep under that test the return sits, runs until stopped: a periodic
# job. The handlers it calls in each round are its steps, one that pauses after its work included;
# its helper named for napping (a `select` on a wake-up pipe, read when woken) is its wait, no step.
import os
import select
import threading
import time

import requests


def split(task):
    requests.post("https://media.example/split", json=task)
    time.sleep(0.5)  # lets the other workers see the tasks it queued


def merge(task):
    requests.post("https://media.example/merge", json=task)


WAKEUP_R, WAKEUP_W = os.pipe()


def _nap(seconds):
    ready, _, _ = select.select([WAKEUP_R], [], [], seconds)
    if ready:
        os.read(WAKEUP_R, 64)


def work_loop(store, exit_idle_sec: float = 0):  # expect: JC501
    idle_since = 0.0
    while True:
        task = store.acquire()
        if task is None:
            if exit_idle_sec > 0:
                now = time.time()
                if idle_since == 0.0:
                    idle_since = now
                elif now - idle_since >= exit_idle_sec:
                    return
            _nap(1)
            continue
        idle_since = 0.0
        if task["type"] == "SPLIT":
            split(task)
        elif task["type"] == "MERGE":
            merge(task)


def main(store):
    threading.Thread(target=work_loop, args=(store,)).start()
