# jobcheck-test: select=JC201
# A retried function that reports each failed attempt before raising it again (an alert email, a
# webhook to the on-call channel), itself or in a helper that raises again after it: the report is
# about the attempt, sent once per failure; what the retry repeats is the work, and that work is
# the finding when it has an effect.
import smtplib

import backoff
import requests


def alert_admins(exc):
    with smtplib.SMTP("localhost") as smtp:
        smtp.sendmail("bot@example.com", ["ops@example.com"], f"query failed: {exc}")


@backoff.on_exception(backoff.expo, Exception, max_tries=3)
def get_rows(db, query):
    try:
        return db.execute(query)
    except Exception as e:
        alert_admins(e)
        raise


def ping(db):
    try:
        db.execute("select 1")
    except Exception as e:
        alert_admins(e)
        raise


@backoff.on_exception(backoff.expo, Exception, max_tries=3)
def check_views(db):
    ping(db)  # the alert is the helper's report of its own failure
    db.execute("create view if not exists totals as select 1")


@backoff.on_exception(backoff.expo, Exception, max_tries=3)
def push_rows(rows):
    try:
        requests.post("https://warehouse.example/rows", json=rows)  # expect: JC201
    except requests.Timeout as e:
        requests.post("https://hooks.example/oncall", json={"error": str(e)})
        raise


@backoff.on_exception(backoff.expo, Exception, max_tries=3)
def push_or_fallback(rows):
    try:
        requests.post("https://warehouse.example/rows", json=rows)  # expect: JC201
    except requests.Timeout:
        requests.post("https://fallback.example/rows", json=rows)  # expect: JC201
