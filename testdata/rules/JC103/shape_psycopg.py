# psycopg 3: on an autocommit connection `with conn.transaction():` is the only transaction, and
# a statement outside it commits on its own. Without autocommit, `with psycopg.connect() as conn`
# commits once at the end of the block.
import psycopg
from celery import shared_task


@shared_task
def key_in_transaction_then_write(event_id, dsn):
    with psycopg.connect(dsn, autocommit=True) as conn:
        with conn.transaction():
            conn.execute("INSERT INTO processed_events (key) VALUES (%s)", [f"event-{event_id}"])
        conn.execute("UPDATE accounts SET balance = 0 WHERE id = %s", [event_id])  # expect: JC103


@shared_task
def one_transaction(event_id, dsn):
    with psycopg.connect(dsn, autocommit=True) as conn:
        with conn.transaction():
            conn.execute("INSERT INTO processed_events (key) VALUES (%s)", [f"event-{event_id}"])
            conn.execute("UPDATE accounts SET balance = 0 WHERE id = %s", [event_id])


@shared_task
def cursor_in_transaction(event_id, dsn):
    with psycopg.connect(dsn) as conn, conn.cursor() as cur:
        cur.execute("INSERT INTO processed_events (key) VALUES (%s)", [f"event-{event_id}"])
        cur.execute("UPDATE accounts SET balance = 0 WHERE id = %s", [event_id])


@shared_task
def commit_between(event_id, dsn):
    conn = psycopg.connect(dsn)
    conn.execute("INSERT INTO processed_events (key) VALUES (%s)", [f"event-{event_id}"])
    conn.commit()
    conn.execute("UPDATE accounts SET balance = 0 WHERE id = %s", [event_id])  # expect: JC103
    conn.commit()


@shared_task
def enqueue_once(event_id, dsn, key):
    """A re-sent request for failed work requeues the existing row and returns: that write and
    the key's insert below never happen in one run."""
    conn = psycopg.connect(dsn)
    existing = conn.execute("SELECT id, status FROM jobs WHERE idempotency_key = %s", [key]).fetchone()
    if existing and existing[1] == "failed":
        conn.execute("UPDATE jobs SET status = 'queued' WHERE id = %s", [existing[0]])
        conn.commit()
        return existing[0]
    conn.execute("INSERT INTO jobs (event_id, idempotency_key) VALUES (%s, %s)", [event_id, key])
    conn.commit()
    conn.execute("UPDATE accounts SET balance = 0 WHERE id = %s", [event_id])  # expect: JC103
    conn.commit()
