"""Monthly invoicing that answers the five questions.

Three changes from unsafe_invoice.py:

1. Keys from the work. An invoice is identified by (customer, period), enforced by the primary
   key; every external effect has a key derived from the same work ("charge:cus_1:2024-05"),
   never from the clock or a random number, so every attempt computes the same one.
2. An outbox. Invoices and the effects they cause are recorded in one transaction; a relay then
   performs each effect, sending its key as the Idempotency-Key, and marks it delivered. A run
   that dies anywhere leaves either nothing or a complete record the next run finishes, and a
   repeated request is absorbed by the API instead of charging twice.
3. A lease with a fencing token. One runner per period holds the lease; every write carries
   the token and the database rejects writes with an older token than it has seen, so a runner
   that was paused past its lease (GC, SIGSTOP, a slow disk) cannot write after its successor.
"""

from __future__ import annotations

import json
import sqlite3

from billing import CUSTOMERS, Config, post_json

from jobcheck.runtime import checkpoint, fenced_transaction, install_fencing, open_backend


def create_schema(db_path: str) -> None:
    db = sqlite3.connect(db_path)
    with db:
        db.execute("CREATE TABLE customers (id TEXT PRIMARY KEY, email TEXT NOT NULL, amount INTEGER NOT NULL)")
        db.executemany("INSERT INTO customers VALUES (?, ?, ?)", CUSTOMERS)
        db.execute(
            "CREATE TABLE invoices (customer_id TEXT, period TEXT, amount INTEGER NOT NULL,"
            " PRIMARY KEY (customer_id, period))"
        )
        db.execute(
            "CREATE TABLE outbox (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, endpoint TEXT NOT NULL,"
            " payload TEXT NOT NULL, delivered INTEGER NOT NULL DEFAULT 0)"
        )
    install_fencing(db)
    db.close()


def send_invoices(period: str, cfg: Config) -> str:
    """Invoice every customer for ``period``.

    Reliability:
        Runs twice: safe; invoices are keyed (customer, period) and effects by keys from the work.
        Overlaps: no; one runner per period holds lease invoices:<period>, and its writes are fenced.
        Dies mid-run: invoices and their outbox rows commit together; the next run delivers the rest.
        Retries: safe; each outbox row is sent with its key as Idempotency-Key.
        Idempotent: yes; a second run finds every invoice and outbox row done.
    """
    resource = f"{cfg.namespace}invoices:{period}"
    leases = open_backend(cfg.lease_url)
    try:
        lease = leases.acquire(resource, ttl=cfg.lease_ttl)
        if lease is None:
            # Another runner is on it. If it dies, its lease expires and the next run resumes.
            return f"skipped: {resource} is leased by another runner"
        try:
            checkpoint("leased")
            db = sqlite3.connect(cfg.db_path, timeout=30)
            try:
                _record(db, period, resource, lease.token)
                checkpoint("recorded")
                _deliver(db, cfg, resource, lease.token)
            finally:
                db.close()
        finally:
            leases.release(lease)
    finally:
        leases.close()
    return "done"


def _record(db: sqlite3.Connection, period: str, resource: str, token: int) -> None:
    """Invoices and the effects they cause, in one fenced transaction."""
    with fenced_transaction(db, resource, token):
        for customer_id, address, amount in db.execute("SELECT id, email, amount FROM customers ORDER BY id").fetchall():
            new = db.execute(
                "INSERT INTO invoices (customer_id, period, amount) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (customer_id, period, amount),
            ).rowcount
            if new:
                _enqueue(db, f"charge:{customer_id}:{period}", "/v1/charges",
                         {"customer": customer_id, "amount": amount, "description": f"{period} {customer_id}"})
                _enqueue(db, f"email:{customer_id}:{period}", "/v1/emails",
                         {"to": address, "subject": f"Your invoice for {period}", "text": f"Amount due: {amount / 100:.2f} EUR"})
        count = db.execute("SELECT count(*) FROM invoices WHERE period = ?", (period,)).fetchone()[0]
        _enqueue(db, f"notify:{period}", "/v1/notifications", {"channel": "finance", "text": f"invoicing {period}: {count} invoices"})


def _enqueue(db: sqlite3.Connection, key: str, endpoint: str, payload: dict) -> None:
    db.execute(
        "INSERT INTO outbox (key, endpoint, payload) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING",
        (key, endpoint, json.dumps(payload)),
    )


def _deliver(db: sqlite3.Connection, cfg: Config, resource: str, token: int) -> None:
    """The relay: perform each pending effect with its key, then mark it delivered (fenced)."""
    pending = db.execute("SELECT key, endpoint, payload FROM outbox WHERE delivered = 0 ORDER BY id").fetchall()
    for key, endpoint, payload in pending:
        post_json(cfg.api_url + endpoint, json.loads(payload), idempotency_key=key)
        with fenced_transaction(db, resource, token):
            db.execute("UPDATE outbox SET delivered = 1 WHERE key = ?", (key,))


def snapshot(db_path: str) -> dict[str, list[tuple]]:
    db = sqlite3.connect(db_path)
    try:
        return {
            "invoices": db.execute("SELECT customer_id, period, amount FROM invoices ORDER BY customer_id, period").fetchall(),
            "outbox": db.execute("SELECT key, delivered FROM outbox ORDER BY key").fetchall(),
        }
    finally:
        db.close()
