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
