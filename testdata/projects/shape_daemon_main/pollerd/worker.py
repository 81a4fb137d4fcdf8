# jobcheck-test: select=JC501
"""A worker loop a script's main starts one call down: it calls a hook given to it in every round
(`on_heartbeat`), but main gives none, so the loop's own work (claiming rows) is what runs. A
runner main hands the work to (`run_every(sync_feeds, 30)`) is no job itself: what it is given is."""
import time

import requests


def _noop(**kwargs):
    return None


def run_worker(queue_url, *, interval=5.0, once=False, on_heartbeat=None):  # expect: JC501
    on_heartbeat = on_heartbeat or _noop
    while True:
        on_heartbeat(tick_ok=True)
        rows = requests.post(queue_url + "/claim").json()
        for row in rows:
            requests.post(queue_url + "/done", json=row)
        if once and not rows:
            break
        time.sleep(interval)


def run_every(func, interval):
    while True:
        func()
        time.sleep(interval)


def sync_feeds():  # expect: JC501
    requests.post("https://feeds.example/sync")


def main():
    run_worker("https://queue.example", once=False)
    run_every(sync_feeds, 30)


if __name__ == "__main__":
    raise SystemExit(main())
