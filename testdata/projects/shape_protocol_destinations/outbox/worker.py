# jobcheck-test: select=JC501
"""An outbox worker: each round claims messages and hands each to the destination the
configuration names, typed by a protocol (`get_destination(...) -> Destination`). Its loop goes
round after a database error, but also after a round that did work (`if processed: continue`):
a worker's loop, not a retry loop; `--burst` (off by default) leaves it once nothing is due."""
import logging
import threading

from django.db import DatabaseError

from outbox.destinations import get_destination

log = logging.getLogger(__name__)


class Worker:
    def __init__(self, poll=5.0):
        self.stop_event = threading.Event()
        self.poll = poll

    def run(self, *, burst=False):  # expect: JC501
        while not self.stop_event.is_set():
            try:
                processed = self.run_once()
            except DatabaseError:
                log.exception("lost the database")
                self.stop_event.wait(self.poll)
                continue
            if processed:
                continue
            if burst:
                break
            self.stop_event.wait(self.poll)

    def run_once(self):
        claimed = claim_batch()
        for name, envelope in claimed:
            get_destination(name).deliver(envelope)
        return len(claimed)


def claim_batch():
    return []
