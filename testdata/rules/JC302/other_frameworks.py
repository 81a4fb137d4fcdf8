# jobcheck-test: select=JC302
# The same failure under RQ, Huey, Dramatiq and APScheduler, with leases from python-redis-lock,
# pottery, sherlock and jobcheck.runtime; and their clean forms.
import time

import boto3
import dramatiq
import pottery
import redis
import redis_lock
import requests
import sherlock
from apscheduler.schedulers.blocking import BlockingScheduler
from huey import RedisHuey
from rq.decorators import job

from jobcheck.runtime import SQLiteLeases, fenced_transaction

from .models import Account, Export

conn = redis.Redis()
huey = RedisHuey("app")
scheduler = BlockingScheduler()
s3 = boto3.client("s3")
leases = SQLiteLeases("leases.db")


@job("default", connection=conn)
def export_accounts():
    with redis_lock.Lock(conn, "export", expire=60):
        body = "\n".join(a.email for a in Account.objects.all())
        for chunk in range(3):
            time.sleep(1)
        s3.put_object(Bucket="exports", Key="accounts.csv", Body=body)  # expect: JC302


@huey.task()
def sync_balances():
    with pottery.Redlock(key="balances", masters={conn}):
        for account in Account.objects.all():
            balance = requests.get(f"https://bank.example/{account.id}").json()
            Account.objects.filter(id=account.id).update(balance=balance)  # expect: JC302


@dramatiq.actor
def notify_partners():
    with sherlock.Lock("partners", expire=30):
        partners = requests.get("https://crm.example/partners").json()
        requests.post("https://crm.example/notify", json=partners)  # expect: JC302


@scheduler.scheduled_job("interval", minutes=5)
def roll_exports(db):
    lease = leases.acquire("exports", 60)
    if lease is None:
        return
    try:
        rows = requests.get("https://warehouse.example/rows").json()
        Export.objects.create(rows=rows)  # expect: JC302
    finally:
        leases.release(lease)


# ---- clean ----


@job("default", connection=conn)
def export_extended():
    with redis_lock.Lock(conn, "export", expire=60) as lock:
        body = "\n".join(a.email for a in Account.objects.all())
        time.sleep(1)
        lock.extend(expire=60)
        s3.put_object(Bucket="exports", Key="accounts.csv", Body=body)


@scheduler.scheduled_job("interval", minutes=5)
def roll_exports_fenced(db):
    with leases.hold("exports", 60) as lease:
        rows = requests.get("https://warehouse.example/rows").json()
        with fenced_transaction(db, "exports", lease.token):
            db.execute("INSERT INTO export (rows) VALUES (?)", [rows])


@huey.task()
def sync_balances_renewed():
    with pottery.Redlock(key="balances", masters={conn}) as lock:
        for account in Account.objects.all():
            balance = requests.get(f"https://bank.example/{account.id}").json()
            lock.extend()
            Account.objects.filter(id=account.id).update(balance=balance)
