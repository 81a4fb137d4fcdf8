"""Monthly invoicing, written the way it usually is - and wrong five ways.

For each customer without an invoice for the period: charge the card, email the invoice, then
record it; finally tell finance the run is done. It works every time it runs once, alone,
to completion. The verification harness shows what happens otherwise (see README.md).
"""

from __future__ import annotations

import smtplib
import sqlite3
from datetime import datetime
from email.message import EmailMessage

from billing import CUSTOMERS, Config, post_json


def create_schema(db_path: str) -> None:
    db = sqlite3.connect(db_path)
    with db:
        db.execute("CREATE TABLE customers (id TEXT PRIMARY KEY, email TEXT NOT NULL, amount INTEGER NOT NULL)")
        db.executemany("INSERT INTO customers VALUES (?, ?, ?)", CUSTOMERS)
        # Nothing stops two invoices for one customer and period.
        db.execute("CREATE TABLE invoices (number TEXT, customer_id TEXT, period TEXT, amount INTEGER)")
    db.close()


def send_invoices(period: str, cfg: Config) -> None:
    """Invoice every customer for ``period``."""
    db = sqlite3.connect(cfg.db_path)
    try:
        created = 0
        for customer_id, address, amount in db.execute("SELECT id, email, amount FROM customers ORDER BY id").fetchall():
            # Check-then-act: two runs can both find "no invoice yet" before either records one.
            if db.execute(
                "SELECT 1 FROM invoices WHERE customer_id = ? AND period = ?", (customer_id, period)
            ).fetchone():
                continue
            # A key from the clock (JC101): a retry or a second run mints a different one.
            number = f"INV-{datetime.now():%Y%m%d%H%M%S%f}"
            # No Idempotency-Key (JC104): a repeated request is a second charge.
            post_json(f"{cfg.api_url}/v1/charges", {"customer": customer_id, "amount": amount, "description": number})
            _email(cfg, address, number, amount)
            # Recorded after the effects (JC401): dying before this line repeats them next run.
            db.execute(
                "INSERT INTO invoices (number, customer_id, period, amount) VALUES (?, ?, ?, ?)",
                (number, customer_id, period, amount),
            )
            db.commit()
            created += 1
        # Sent by every run, whatever it found to do.
        post_json(f"{cfg.api_url}/v1/notifications", {"channel": "finance", "text": f"invoicing {period}: {created} new"})
    finally:
        db.close()


def _email(cfg: Config, address: str, number: str, amount: int) -> None:
    message = EmailMessage()
    message["From"] = "billing@example.com"
    message["To"] = address
    message["Subject"] = f"Your invoice {number}"
    message.set_content(f"Amount due: {amount / 100:.2f} EUR")
    with smtplib.SMTP(cfg.smtp_host, cfg.smtp_port, timeout=10) as smtp:
        smtp.send_message(message)


def snapshot(db_path: str) -> dict[str, list[tuple]]:
    """The end state that matters (invoice numbers come from the clock, so they are left out)."""
    db = sqlite3.connect(db_path)
    try:
        rows = db.execute("SELECT customer_id, period, amount FROM invoices ORDER BY customer_id, period").fetchall()
        return {"invoices": rows}
    finally:
        db.close()
