# jobcheck-test: select=JC205,JC501
# A thread whose loop waits on its stop event each round (`while not stop.wait(interval):`) is a
# periodic job, as one that sleeps in its body; a round that logs its failures at debug hides them.
import logging
import threading

import requests

logger = logging.getLogger(__name__)
_watchdog_stop = threading.Event()


def _scan_open_transactions():
    requests.post("https://db.example/watchdog/scan", timeout=10)


def _watchdog_loop():  # expect: JC501
    while not _watchdog_stop.wait(30):
        try:
            _scan_open_transactions()
        except Exception as exc:  # expect: JC205
            logger.debug("txn watchdog scan failed: %s", exc)


class Reporter:
    def __init__(self):
        self._stopped = threading.Event()
        threading.Thread(target=self._report, daemon=True).start()

    def _report(self):  # expect: JC501
        while not self._stopped.wait(timeout=60):
            requests.post("https://metrics.example/report", timeout=10)


def _wait_for_result(result):
    """Waiting on a result, not a stop event: no periodic job."""
    while not result.wait(5):
        requests.get("https://status.example/ping", timeout=10)


threading.Thread(target=_watchdog_loop, daemon=True).start()
threading.Thread(target=_wait_for_result, args=(threading.Event(),), daemon=True).start()
