# jobcheck-test: select=JC201,JC202
# A loop whose round starts by taking an item (`item = self._queue.get()`, `job =
# store.claim_next()`) goes round to the next item after a failure: it retries nothing, whatever
# it catches. A loop that goes round to send the same thing again is a retry loop.
import logging
import queue
import threading
import time

import requests

log = logging.getLogger(__name__)


class Reporter:
    def __init__(self, store):
        self._queue = queue.Queue()
        self.store = store
        threading.Thread(target=self._worker, daemon=True).start()
        threading.Thread(target=self._claimer, daemon=True).start()

    def _worker(self):
        while True:
            item = self._queue.get()
            try:
                response = requests.post("https://monitor.example/steps", json=item, timeout=10)
                if response.status_code == 404:
                    return  # the server takes no step reports
            except Exception as exc:
                log.warning("step report failed: %s", exc)

    def _claimer(self):
        while True:
            job = self.store.claim_next()
            try:
                if not requests.post("https://jobs.example/run", json={"id": job}, timeout=10).ok:
                    break
            except Exception:
                log.exception("job failed")
            time.sleep(1)

    def announce(self, text):
        while True:  # expect: JC202
            try:
                requests.post("https://chat.example/announce", json={"text": text}, timeout=10)  # expect: JC201
                break
            except Exception:
                time.sleep(5)


if __name__ == "__main__":
    Reporter(None).announce("up")
