"""A daemon's loop is an in-house scheduler: the steps it calls in every round that work beyond the
process (start a program, delete files, post to a service) run again on the next round whatever
the last one did, so they are listed beside the loop as kind `step`, also one whose result the loop
keeps (`sent = self.flush_outbox()`). A call that asks (`get_*`, kept or tested), one that only
computes, a log line and a reconnect in an `except` clause are no steps; a helper
that starts what it is given (`start_safely(self.refresh_cache())`) is none either: what it starts
is a new run every round, a job of its own."""

import asyncio
import logging
import os
import subprocess
import time

import requests

log = logging.getLogger(__name__)


def start_safely(coro):
    return asyncio.ensure_future(coro)


class ScanDaemon:
    def __init__(self):
        self.queued = []
        self.finished = {}
        self.total = 0

    def run(self):  # expect: JC501
        while True:
            time.sleep(10)
            try:
                self.start_queued_scans()
            except ConnectionError:
                self.reconnect()
            self.clean_forgotten_scans()
            self.notify_watchers()
            start_safely(self.refresh_cache())
            if self.get_scan_status("latest") == "done":
                self.tally()
            sent = self.flush_outbox()
            zone = self.local_zone_name()  # kept, but it changes nothing: no step
            status = self.get_scan_status("previous")
            log.info("round done: %s sent, %s, %s", sent, status, zone)

    def start_queued_scans(self):
        for scan in self.queued:
            subprocess.Popen(["scanner", "--target", scan])

    def clean_forgotten_scans(self):
        for scan_id, path in list(self.finished.items()):
            os.remove(path)
            del self.finished[scan_id]

    def notify_watchers(self):
        requests.post("https://hooks.example.com/scans", json={"finished": sorted(self.finished)}, timeout=10)

    def flush_outbox(self):
        response = requests.post("https://mail.example.com/outbox/flush", timeout=10)
        return response.json()["sent"]

    def local_zone_name(self):
        return subprocess.run(["date", "+%Z"], capture_output=True, text=True).stdout.strip()

    async def refresh_cache(self):  # expect: JC501
        requests.post("https://cache.example.com/refresh", timeout=10)

    def get_scan_status(self, scan_id):
        return requests.get(f"https://scanner.example.com/scans/{scan_id}", timeout=10).json()["status"]

    def tally(self):
        self.total = sum(len(name) for name in self.finished)

    def reconnect(self):
        requests.post("https://scanner.example.com/session", timeout=10)


if __name__ == "__main__":
    ScanDaemon().run()
