# jobcheck-test: select=JC201,JC202,JC203
"""Loops that look like retries and are not (quiet), and retry loops in less common shapes."""
import itertools
import queue
import threading
import time

import requests
from celery import shared_task

stop = threading.Event()
work = queue.Queue()
HOSTS = ["https://a.example", "https://b.example"]


@shared_task
def stop_flag_worker(url):
    """A worker that checks a stop flag before its work: no retry."""
    while True:
        if stop.is_set():
            break
        requests.post(url, json={"tick": 1}, timeout=5)
        time.sleep(5)


@shared_task
def consumer_with_sentinel(url):
    """Takes an item, leaves on the sentinel, works on the rest: no retry."""
    while True:
        try:
            msg = work.get(timeout=1)
            if msg is None:
                break
            requests.post(url, json=msg, timeout=5)
        except queue.Empty:
            continue


class Consumer:
    running = True

    def run(self, url):
        """`while self.running` is a flag, not a count; the try leaves on nothing: no retry."""
        while self.running:
            try:
                msg = work.get(timeout=1)
                requests.post(url, json=msg, timeout=5)
            except queue.Empty:
                continue


@shared_task
def consume(url):
    Consumer().run(url)


@shared_task
def failover(payload):
    """The first host that answers: a loop over items, not attempts."""
    for host in HOSTS:
        try:
            return requests.post(host, json=payload, timeout=5)
        except requests.RequestException:
            continue
    return None


@shared_task
def always_leaves(url):
    """Every arm of the handler leaves: no attempt follows a failure."""
    for attempt in range(3):
        try:
            return requests.post(url, timeout=5)
        except requests.HTTPError as exc:
            if exc.response.status_code == 429:
                raise RuntimeError("throttled") from exc
            else:
                raise


@shared_task
def each_index(items, url):
    """`range(len(items))` indexing them: one attempt per item."""
    for i in range(len(items)):
        try:
            requests.post(url, json=items[i], timeout=5)
            break
        except requests.RequestException:
            continue


@shared_task
def waits_on_event(url):
    """An event's wait(timeout) is a backoff (JC203 quiet); the POST is sent again (JC201)."""
    for attempt in range(5):
        try:
            return requests.post(url, timeout=5)  # expect: JC201
        except requests.RequestException:
            stop.wait(2 ** attempt)


@shared_task
def count_with_exit(url):
    """`itertools.count()` whose handler gives up is bounded (JC202 quiet)."""
    for attempt in itertools.count():
        try:
            return requests.post(url, timeout=5)  # expect: JC201
        except requests.RequestException:
            if attempt >= 5:
                raise
            time.sleep(2 ** attempt)


class Client:
    propagate_errors = False

    def send(self, url):
        """A setting decides whether a failure raises (`if self.propagate_errors: raise`): with it
        off, failures go round for ever."""
        while True:  # expect: JC202
            try:
                return requests.post(url, timeout=5)  # expect: JC201
            except requests.RequestException as exc:
                if self.propagate_errors:
                    raise
                time.sleep(2)

    def send_checked(self, url):
        """What the failure says decides (`if exc.fatal: raise`): a way out of a run of failures."""
        while True:
            try:
                return requests.post(url, timeout=5)  # expect: JC201
            except requests.RequestException as exc:
                if exc.fatal:
                    raise
                time.sleep(2)

    def send_counted(self, url):
        """A setting read beside a count the loop keeps: the count bounds it."""
        tries = 0
        while True:
            try:
                return requests.post(url, timeout=5)  # expect: JC201
            except requests.RequestException:
                tries += 1
                if self.propagate_errors or tries > 5:
                    raise
                time.sleep(2)


    def send_fail_fast_or_counted(self, url):
        """A setting in the `if`, a count in its `elif`: the count bounds it."""
        attempts = 0
        while True:
            try:
                return requests.post(url, timeout=5)  # expect: JC201
            except requests.RequestException:
                attempts += 1
                if self.propagate_errors:
                    raise
                elif attempts > 5:
                    raise
                time.sleep(2)

    def send_with_delays(self, url, delays):
        """A list of delays used up by the loop (`delays.pop(0)`): when it is empty, the loop gives up."""
        while True:
            try:
                return requests.post(url, timeout=5)  # expect: JC201
            except requests.RequestException:
                if not delays:
                    raise
                time.sleep(delays.pop(0))

    def send_with_budget(self, url, budget):
        """A budget the loop spends (`budget.spend()`): once spent, it gives up."""
        while True:
            try:
                return requests.post(url, timeout=5)  # expect: JC201
            except requests.RequestException:
                budget.spend()
                if budget.exhausted:
                    raise
                time.sleep(1)

    def send_counted_in_a_tuple(self, url):
        """`tries, delay = tries - 1, delay * 2`: a count the loop keeps."""
        tries, delay = 5, 1
        while True:
            try:
                return requests.post(url, timeout=5)  # expect: JC201
            except requests.RequestException:
                tries, delay = tries - 1, delay * 2
                if not tries:
                    raise
                time.sleep(delay)


@shared_task
def poll_with_client(url, delays, budget):
    Client().send(url)
    Client().send_checked(url)
    Client().send_counted(url)
    Client().send_fail_fast_or_counted(url)
    Client().send_with_delays(url, delays)
    Client().send_with_budget(url, budget)
    Client().send_counted_in_a_tuple(url)


@shared_task
def return_after_try(url):
    """The way out after the `try` is the way out on success: nothing stops a failing one."""
    while True:  # expect: JC202, JC203
        try:
            response = requests.post(url, timeout=5)  # expect: JC201
        except requests.RequestException:
            continue
        return response


@shared_task
def upload_until_accepted(url, path):
    """Leaves when the reply is accepted, and only logs after that check: a retry loop that nothing
    stops and that goes round at once."""
    while True:  # expect: JC202, JC203
        try:
            response = requests.post(url, data=path, timeout=60)  # expect: JC201
            if response.ok:
                return response
            print("upload refused:", response.status_code)
        except requests.RequestException:
            print("upload failed")


@shared_task
def two_loops(connect, url):
    """Each loop is read: the first waits for a connection (no effect), the second retries a POST."""
    for _ in range(10):
        try:
            connect()
            break
        except OSError:
            time.sleep(1)
    for attempt in range(5):  # expect: JC203
        try:
            return requests.post(url, timeout=5)  # expect: JC201
        except requests.RequestException:
            pass


@shared_task
def for_else(url):
    for attempt in range(0, 10, 2):  # expect: JC203
        try:
            requests.post(url, timeout=5)  # expect: JC201
            break
        except requests.RequestException:
            pass
    else:
        raise RuntimeError("gave up")


@shared_task
def ok_after_try(url):
    for attempt in range(5):  # expect: JC203
        try:
            response = requests.post(url, timeout=5)  # expect: JC201
        except requests.RequestException:
            continue
        if response.ok:
            return response
    return None


class Flag:
    sent = False

    def send(self, url):
        while not self.sent:  # expect: JC202
            try:
                requests.post(url, timeout=5)  # expect: JC201
                self.sent = True
            except requests.RequestException:
                time.sleep(10)


@shared_task
def flagged(url):
    Flag().send(url)


@shared_task
def gated_by_flag(url):
    """The handler sets a flag an `if` after the `try` reads: go round (waiting) or leave."""
    for attempt in range(3):
        should_retry = False
        try:
            response = requests.post(url, timeout=5)  # expect: JC201
            should_retry = response.status_code in (429, 503)
        except (requests.Timeout, requests.ConnectionError):
            should_retry = True
        if should_retry and attempt < 2:
            time.sleep(2 ** attempt)
        else:
            return


@shared_task
def sent_flag(url):
    for attempt in range(3):  # expect: JC203
        try:
            requests.post(url, timeout=5)  # expect: JC201
            sent = True
        except requests.RequestException:
            sent = False
        if sent:
            break


@shared_task
def item_flag(url):
    """The flag is something taken, and work follows the check: no retry."""
    for attempt in range(3):
        try:
            item = work.get(timeout=1)
        except queue.Empty:
            item = None
        if item is None:
            break
        requests.post(url, json=item, timeout=5)


@shared_task
def paged(url):
    """A page loop whose handler asks again with no limit: it leaves on a short page, not on a
    success, and the handler sets data, not a flag: no retry loop."""
    offset, limit = 0, 100
    while True:
        try:
            page = requests.get(url, params={"offset": offset, "limit": limit}).json()
        except requests.HTTPError:
            limit = None
            page = requests.get(url, params={"offset": offset}).json()
        offset += len(page)
        if len(page) < 100:
            break


@shared_task
def drain(url):
    """The handler's flag ends the loop (`exhausted = True` ... `if exhausted: break`): the try
    succeeding is what goes round, with new work each time: no retry loop."""
    batches = iter(range(10))
    for attempt in range(100):
        exhausted = False
        try:
            batch = next(batches)
            requests.post(url, json={"batch": batch}, timeout=5)
        except StopIteration:
            exhausted = True
        if exhausted:
            break
        time.sleep(1)


@shared_task
def until_no_more(url):
    for attempt in range(100):
        more = True
        try:
            requests.post(url, json={"page": attempt}, timeout=5)
        except LookupError:
            more = False
        if not more:
            break


@shared_task
def lost_connection_goes_round(url):
    """The handler's last statement raises, but a lost connection goes round first (`continue`)."""
    for attempt in range(3):
        try:
            return requests.post(url, timeout=5)  # expect: JC201
        except requests.RequestException as exc:
            if isinstance(exc, requests.ConnectionError) and attempt < 2:
                time.sleep(0.05 * (attempt + 1))
                continue
            raise


@shared_task
def every_arm_raises(url):
    """A `continue` under a loop of its own is that loop's: every failure still raises."""
    for attempt in range(3):
        try:
            return requests.post(url, timeout=5)
        except requests.HTTPError:
            for hook in HOSTS:
                if not hook:
                    continue
            raise


@shared_task
def checked_then_tried(url, folder):
    """A first `try` that only checks and leaves (`except PermissionError: return`), then the
    attempt, counted down by the loop's test."""
    retry_left = 2
    while retry_left:  # expect: JC203
        try:
            folder.select()
        except PermissionError:
            return None
        try:
            requests.post(url, timeout=5)  # expect: JC201
            retry_left = 0
        except requests.ConnectionError:
            retry_left -= 1
            if not retry_left:
                raise


@shared_task
def two_attempts(url, other):
    """Two `try`s whose failures both go round: which one is the attempt is not told: no retry loop."""
    while True:
        try:
            requests.post(url, timeout=5)
        except requests.ConnectionError:
            continue
        try:
            requests.post(other, timeout=5)
            break
        except requests.ConnectionError:
            continue
