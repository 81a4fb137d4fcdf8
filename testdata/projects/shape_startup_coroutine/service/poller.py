"""A script run as a daemon: `python -m service.poller` loops forever, sleeping between rounds."""
import threading
import time

import requests


def poll_forever():  # expect: JC501
    while True:
        requests.post("https://status.example/heartbeats", json={"from": "poller"})
        time.sleep(60)


def watch_queue(stop):  # expect: JC501
    while True:
        requests.get("https://queue.example/depth")
        stop.wait(10)


def fetch_with_retries(url):
    """A bounded retry loop that sleeps: not a periodic job."""
    for _ in range(3):
        try:
            return requests.get(url, timeout=5)
        except requests.RequestException:
            time.sleep(1)
    return None


def shell():
    """Loops forever but never sleeps between rounds: an interactive prompt, not a schedule."""
    while True:
        print(input("> "))


threading.Thread(target=watch_queue, args=(threading.Event(),), daemon=True).start()

if __name__ == "__main__":
    fetch_with_retries("https://status.example/")
    shell()
    poll_forever()


def wait_for_interrupt():
    """Loops forever doing nothing but sleep until ^C: a process waiting, not a periodic job."""
    while True:
        time.sleep(0.01)
        print("still here")


threading.Thread(target=wait_for_interrupt).start()
