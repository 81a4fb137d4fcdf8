# Keys derived from the clock at execution time, and the clock used as data.
import datetime
import time

import requests
import stripe
from celery import shared_task
from django.core.cache import cache
from django.utils import timezone

from billing.models import Invoice, Processed


@shared_task
def monthly_bill(customer_id, amount):
    period = datetime.date.today().strftime("%Y-%m")  # expect: JC101
    key = f"bill-{customer_id}-{period}"
    stripe.Charge.create(customer=customer_id, amount=amount, idempotency_key=key)


@shared_task
def notify(order_id):
    requests.post(
        "https://partner.example/hook",
        json={"order": order_id},
        headers={"Idempotency-Key": f"{order_id}-{time.time()}"},  # expect: JC101
    )


@shared_task
def mark_once(report_id):
    if not cache.add(f"report:{report_id}:{timezone.now():%H}", 1, timeout=3600):  # expect: JC101
        return
    Invoice.objects.filter(id=report_id).update(sent=True)


def _run_key(name):
    return f"{name}-{datetime.datetime.utcnow().isoformat()}"


@shared_task
def record_run(name):
    # The key comes from a helper that reads the clock: the helper call is where to look.
    Processed.objects.create(key=_run_key(name), started_at=timezone.now())  # expect: JC101


@shared_task
def clock_as_data(invoice_id):
    # The clock as a value stored next to a key derived from the work: fine.
    Processed.objects.create(key=f"invoice-{invoice_id}", sent_at=timezone.now())
    Invoice.objects.filter(id=invoice_id).update(sent_at=datetime.datetime.now())


@shared_task
def scheduled_period(customer_id, amount, scheduled_for):
    # The period the run is *for*, passed in by the scheduler: stable across retries.
    key = f"bill-{customer_id}-{scheduled_for:%Y-%m}"
    stripe.Charge.create(customer=customer_id, amount=amount, idempotency_key=key)


@shared_task
def timing_only(order_id):
    started = time.monotonic()
    requests.post("https://partner.example/hook", json={"order": order_id}, headers={"Idempotency-Key": f"order-{order_id}"})
    print("took", time.monotonic() - started)


def not_a_job(customer_id):
    # Outside job code jobcheck does not judge keys (a web view minting a key per request is
    # a different problem, for a different tool).
    key = f"bill-{customer_id}-{time.time()}"
    stripe.Charge.create(customer=customer_id, amount=1, idempotency_key=key)


@shared_task
def not_keys(batch_id):
    # Names near the word but not keys: a cut-off time and a flag.
    dedup_cutoff = timezone.now() - datetime.timedelta(days=1)
    is_idempotent = bool(time.time())
    Processed.objects.filter(created__lt=dedup_cutoff, flag=is_idempotent).delete()


class MTurk:
    """MTurk's `UniqueRequestToken` is its idempotency token: the same token on a retried call
    grants one bonus, a new one grants another."""

    def __init__(self, client):
        self.client = client

    def _request_token(self):
        return str(time.time())

    def grant_bonus(self, worker_id, assignment_id, amount):
        return self.client.send_bonus(WorkerId=worker_id, AssignmentId=assignment_id, BonusAmount=amount,
                                      Reason="thanks", UniqueRequestToken=self._request_token())  # expect: JC101

    def grant_bonus_once(self, worker_id, assignment_id, amount):
        return self.client.send_bonus(WorkerId=worker_id, AssignmentId=assignment_id, BonusAmount=amount,
                                      Reason="thanks", UniqueRequestToken=f"bonus-{assignment_id}")


@shared_task
def pay_bonus(client, worker_id, assignment_id, amount):
    MTurk(client).grant_bonus(worker_id, assignment_id, amount)
    MTurk(client).grant_bonus_once(worker_id, assignment_id, amount)


def _row_to_job(row):
    return {"id": row[0], "idempotency_key": row[1]}


@shared_task
def requeue_expired(conn, kind):
    """The clock filters which rows a query reads; the keys it reads back are the rows' own."""
    now = datetime.datetime.now(datetime.timezone.utc)
    rows = conn.execute(
        """
        SELECT id, idempotency_key FROM jobs
        WHERE kind = ? AND lease_expires_at < ?
        """,
        (kind, now),
    ).fetchall()
    for row in rows:
        job = _row_to_job(row)
        requests.post("https://jobs.example/requeue", json=job)
    requests.post("https://jobs.example/new", json=_row_to_job((kind, f"{kind}-{time.time()}")))  # expect: JC101


@shared_task
def resurrect_expired(redis):
    """Members read from a sorted set up to now are what the set holds: a lock keyed by one is
    the task's, not the clock's."""
    now = time.time()
    candidates = []
    for task_id in redis.zrangebyscore("expiry", min=0, max=now):
        candidates.append(task_id)
    for task_id in candidates:
        if redis.set(f"resurrect:{task_id}", "1", nx=True, ex=30):
            requests.post("https://jobs.example/replay", json={"task": task_id})


_EXPIRED_SQL = """
SELECT id, idempotency_key FROM jobs
WHERE kind = ? AND lease_expires_at < ?
"""


@shared_task
def requeue_expired_named(conn, kind):
    """The same query, held in a module-level constant: the keys it reads are the rows' own."""
    now = datetime.datetime.now(datetime.timezone.utc)
    for row in conn.execute(_EXPIRED_SQL, (kind, now)).fetchall():
        requests.post("https://jobs.example/requeue", json=_row_to_job(row))
