# jobcheck-test: select=JC205
# A job that catches every failure and says nothing ends as a success; the clean idioms beside it.
import logging
import traceback

import requests
import sentry_sdk
from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task
def passes():
    try:
        requests.post("https://example.com/sync", json={})
    except Exception:  # expect: JC205
        pass


@shared_task
def bare_except_returns():
    try:
        requests.post("https://example.com/sync", json={})
    except:  # expect: JC205  # noqa: E722
        return None


@shared_task
def logs_below_warning(account_id):
    try:
        sync(account_id)
    except Exception:  # expect: JC205
        logger.info("sync failed for %s", account_id)


@shared_task
def logs_the_traceback_at_debug(account_id):
    try:
        sync(account_id)
    except Exception:  # expect: JC205
        logger.debug(traceback.format_exc())


@shared_task
def logs_the_traceback_at_error(account_id):
    try:
        sync(account_id)
    except Exception:
        logger.error(traceback.format_exc())


@shared_task
def logs_the_failure(account_id):
    try:
        sync(account_id)
    except Exception:
        logger.exception("sync failed for %s", account_id)


@shared_task
def logs_the_failure_then_marks_it_as_it_can(account_id):
    # The run's failure is logged; what the inner `try` keeps is a failure to record it.
    try:
        sync(account_id)
    except Exception as exc:
        logger.error("sync failed for %s: %s", account_id, exc)
        try:
            mark_failed(account_id)
        except Exception:
            pass


@shared_task
def reports_to_the_error_tracker(account_id):
    try:
        sync(account_id)
    except Exception as exc:
        sentry_sdk.capture_exception(exc)


@shared_task
def raises_again_after_cleaning_up(account_id):
    try:
        sync(account_id)
    except BaseException:
        logger.debug("cleaning up")
        raise


@shared_task(bind=True, max_retries=3)
def retries(self, account_id):
    try:
        sync(account_id)
    except Exception as exc:
        self.retry(exc=exc)


@shared_task
def catches_what_it_expects(account_id):
    try:
        sync(account_id)
    except requests.Timeout:
        pass


@shared_task
def one_bad_item_does_not_stop_the_batch(account_ids):
    skipped = []
    for account_id in account_ids:
        try:
            sync(account_id)
        except Exception:
            skipped.append(account_id)
    return skipped


@shared_task
def returns_the_error_in_its_result(code):
    # The caller that waits for this task's result reads the failure there.
    try:
        result = requests.post("https://analysis.example/run", json={"code": code}).json()
    except Exception as e:
        return {"is_valid": False, "error": f"Analysis failed: {e}"}
    return {"is_valid": True, "result": result}


@shared_task
def returns_a_flag_but_not_the_error(code):
    try:
        requests.post("https://analysis.example/run", json={"code": code})
    except Exception as e:  # expect: JC205
        logger.debug("failed: %s", e)
        return {"ok": False}
    return {"ok": True}


@shared_task
def nothing_in_the_try_can_fail(value):
    try:
        total = value + 1
    except Exception:
        total = 0
    return total


def helper_swallows(account_id):
    # Not the job's own body: what the job sees is what this returns.
    try:
        sync(account_id)
    except Exception:
        pass


@shared_task
def calls_a_helper_that_swallows(account_id):
    helper_swallows(account_id)


def mark_failed(account_id):
    requests.post("https://status.example.com/failed", json={"account": account_id})


def sync(account_id):
    requests.post("https://example.com/accounts", json={"id": account_id})


# A thread or coroutine that loops until stopped: the loop is the job's schedule, and a `try`
# around its round is each run's outcome.

import threading
import time

stop = threading.Event()


def cleanup_forever():
    while not stop.is_set():
        try:
            requests.post("https://example.com/cleanup", json={})
        except Exception as exc:  # expect: JC205
            logger.debug("cleanup failed, will try again: %s", str(exc))
        stop.wait(60)


def cleanup_forever_reported():
    while not stop.is_set():
        try:
            requests.post("https://example.com/cleanup", json={})
        except Exception:
            logger.exception("cleanup failed, will try again")
        stop.wait(60)


def sweep_forever(accounts):
    while not stop.is_set():
        for account_id in accounts:
            try:
                requests.post("https://example.com/sweep", json={"id": account_id})
            except Exception:
                logger.debug("one account failed; the others run")
        stop.wait(300)


def next_delay(elapsed):
    return min(60, 1 + elapsed / 10)


def save_logs_forever(started):
    """The delay its pause is given is computed by a helper: part of the pause, no other work."""
    while not stop.is_set():
        try:
            requests.put("https://example.com/logs", data=b"...")
        except:  # expect: JC205
            pass
        time.sleep(next_delay(time.time() - started))


threading.Thread(target=cleanup_forever, daemon=True).start()
threading.Thread(target=save_logs_forever, args=(0,), daemon=True).start()
threading.Thread(target=cleanup_forever_reported, daemon=True).start()
threading.Thread(target=sweep_forever, args=([],), daemon=True).start()


def queue_worker(work):
    """Each round takes an item and works on it: per item, so the others run."""
    while True:
        item = work.get(timeout=1)
        try:
            requests.post("https://example.com/items", json=item)
        except Exception as exc:
            logger.debug("item failed: %s", str(exc))


@shared_task
def retry_loop_with_quiet_handler(order_id):
    """A retry loop's handler goes round to try again: no swallowed failure (JC202 says the rest)."""
    while True:
        try:
            requests.post("https://example.com/orders", json={"id": order_id})
            break
        except Exception:
            logger.info("retrying")


@shared_task
def prints_the_error():
    """A message made with `format` only feeds a print: said below warning."""
    try:
        requests.post("https://example.com/callback", json={})
    except Exception as exc:  # expect: JC205
        print("WARNING: failed running the callback: {}".format(exc))


@shared_task
def records_the_formatted_error(job):
    """The message made with `format` is stored with the job: the failure is recorded."""
    try:
        requests.post("https://example.com/sync", json={})
    except Exception as exc:
        job.error = "sync failed: {}".format(exc)
    job.save()


@shared_task
def records_the_error(job):
    """The exception made text is stored with the job: the failure is recorded."""
    try:
        requests.post("https://example.com/sync", json={})
    except Exception as exc:
        job.error = str(exc)
    job.save()


threading.Thread(target=queue_worker, args=(None,), daemon=True).start()


def queue_worker_taking_in_the_try(work, counts):
    """The item is taken inside the `try` (its timeout is the round's wait): still per item."""
    while True:
        try:
            item = work.get(timeout=0.1)
            counts.record(item)
        except Exception:
            pass


threading.Thread(target=queue_worker_taking_in_the_try, args=(None, None), daemon=True).start()


def monitor_forever(client):
    """A dict's `get` in the round is no item taken: the round's failure is swallowed."""
    while True:
        try:
            status = client.status()
            for name in status.get("services", []):
                client.register(name)
        except Exception:  # expect: JC205
            pass
        time.sleep(5)


threading.Thread(target=monitor_forever, args=(None,), daemon=True).start()


def last_run():
    return 0


def sync_since_last_run():
    """A value read for the round (`since`) is no item taken: the `try` is the round's outcome."""
    while not stop.is_set():
        since = last_run()
        try:
            requests.post("https://example.com/sync", json={"since": since})
        except Exception:  # expect: JC205
            logger.debug("sync failed")
        stop.wait(60)


threading.Thread(target=sync_since_last_run, daemon=True).start()


@shared_task
def closes_quietly(account_id):
    """A clean-up that fails (the connection already dropped) leaves the work done."""
    conn = requests.Session()
    conn.post("https://example.com/sync", json={"id": account_id})
    try:
        conn.close()
    except Exception:
        pass


@shared_task
def stops_its_subscriber(subscriber, account_id):
    """Stopping the parts the run started, in its `finally`, is clean-up too: the work is done."""
    try:
        requests.post("https://example.com/sync", json={"id": account_id}).raise_for_status()
    finally:
        try:
            subscriber.stop()
        except Exception:
            pass


@shared_task
def tells_it_is_done(account_id, done):
    """Setting the event that says the run ended is clean-up too; a cache's `set(key, value)` is work."""
    requests.post("https://example.com/sync", json={"id": account_id})
    try:
        done.set()
    except Exception:
        pass


@shared_task
def logs_what_it_got(account_id, report):
    """A log line that fails (a key missing from what it formats) is no failed run."""
    requests.post("https://example.com/sync", json={"id": account_id})
    try:
        logger.debug("sent %s to %s" % (report["name"], str(report["site"])))
    except Exception:
        pass


@shared_task
def sync_pages(stop_flag, first):
    """A loop over pages ends when they run out, even with a stop check first: per page, not a round."""
    page = first
    while page:
        if stop_flag.is_set():
            break
        try:
            requests.post("https://example.com/pages", json=page)
        except Exception:
            pass
        page = page.get("next")


@shared_task
def caches_quietly(account_id, cache):
    try:
        cache.set(account_id, requests.get("https://example.com/account").json())
    except Exception:  # expect: JC205
        pass


@shared_task
def hands_the_failure_over(results):
    try:
        results.put(requests.post("https://example.com/sync", json={}))
    except Exception as exc:
        results.put(exc)  # handed to the caller, who reads the queue


@shared_task
def keeps_the_failure_in_a_local():
    try:
        requests.post("https://example.com/sync", json={})
    except Exception as exc:  # expect: JC205
        msg = exc
        logger.debug("failed: %s", msg)


def flush_forever():
    """A step of the round fails quietly, and the round goes on with the rest of its work."""
    while not stop.is_set():
        stop.wait(10)
        try:
            requests.post("https://example.com/digests", json={})
        except Exception:
            logger.debug("digest flush failed")
        requests.post("https://example.com/queue", json={})


threading.Thread(target=flush_forever, daemon=True).start()


def sync_or_skip_forever():
    """The handler leaves the round: the work after the `try` runs only when the step succeeded."""
    while not stop.is_set():
        stop.wait(60)
        try:
            requests.post("https://example.com/sync", json={})
        except Exception:  # expect: JC205
            logger.debug("sync failed")
            continue
        requests.post("https://example.com/ack", json={})


threading.Thread(target=sync_or_skip_forever, daemon=True).start()


@shared_task
def cancels_quietly(api, order_id):
    """Cancelling is the work here, not clean-up after it."""
    try:
        api.cancel(order_id)
    except Exception:  # expect: JC205
        pass


@shared_task
def keeps_the_failure_for_the_caller(results):
    try:
        outcome = requests.post("https://example.com/sync", json={})
    except Exception as exc:
        outcome = exc  # handed to the caller below, through the queue it reads
    results.put(outcome)


@shared_task
def logs_the_kept_failure_later():
    outcome = None
    try:
        requests.post("https://example.com/sync", json={})
    except Exception as exc:  # expect: JC205
        outcome = exc
    logger.debug("outcome: %s", outcome)


def poll_tool_calls_forever(api, tools):
    """Each round takes the pending calls from the server inside its `try` (a poll, as a queue's
    `get`) and reports each call's failure to the server: a failed poll is no failed run."""
    while True:
        try:
            pending = api.poll_tool_calls()
            for call in pending:
                try:
                    api.resolve_tool_call(call["id"], tools[call["name"]](call["input"]))
                except Exception as exc:
                    api.resolve_tool_call(call["id"], {"error": str(exc)})
        except Exception as exc:
            print(f"poll error: {exc}")
        time.sleep(5)


def refresh_rates_forever(api):
    while True:
        try:
            rates = api.fetch_rates()
            requests.post("https://example.com/rates", json=rates)
        except Exception as exc:  # expect: JC205
            print(f"rates failed: {exc}")
        time.sleep(5)


threading.Thread(target=poll_tool_calls_forever, args=(None, {}), daemon=True).start()
threading.Thread(target=refresh_rates_forever, args=(None,), daemon=True).start()


@shared_task
def runs_a_query(conn, kill_event, sql):
    """The watcher only tears the connection down when told to: a failed clean-up, not a failed run."""
    def abort_watch():
        while not done.is_set():
            if kill_event.is_set():
                try:
                    sock = getattr(conn, "_sock", None)
                    if sock is not None:
                        sock.shutdown(2)
                except Exception:
                    pass
                return
            time.sleep(0.5)

    done = threading.Event()

    threading.Thread(target=abort_watch, daemon=True).start()
    return conn.execute(sql)


@shared_task
def search_then_clear(client, query):
    """A `try` in a `finally:` block cleans up after the work, whatever happened to it."""
    scroll_id = None
    try:
        scroll_id = client.search(query)
        requests.post("https://example.com/results", json={"scroll": scroll_id})
    finally:
        try:
            client.clear_scroll(scroll_id)
        except Exception:
            pass


def watch_after_cleanup(client):
    try:
        client.open()
    finally:
        def watch_forever():  # started from a `finally:`, but its own `try` guards its work
            while True:
                try:
                    requests.post("https://example.com/watch", json={})
                except Exception:  # expect: JC205
                    pass
                time.sleep(5)

        threading.Thread(target=watch_forever, daemon=True).start()
