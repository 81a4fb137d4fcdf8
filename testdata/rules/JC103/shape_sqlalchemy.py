# SQLAlchemy transactions: `session.commit()` ends the transaction that recorded the key, so a
# write after it is in another one; `with session.begin():`, `with Session(engine) as s,
# s.begin():`, `with SessionLocal.begin() as s:` and `with engine.begin() as conn:` each open one.
from celery import shared_task
from sqlalchemy import insert, text, update
from sqlalchemy.orm import Session

from billing.db import SessionLocal, engine
from billing.tables import Account, ProcessedEvent, accounts, processed_events


@shared_task
def commit_then_write(event_id):
    session: Session = SessionLocal()
    session.add(ProcessedEvent(key=f"event-{event_id}"))
    session.commit()
    session.add(Account(id=event_id, balance=0))  # expect: JC103
    session.commit()


@shared_task
def one_commit(event_id):
    # Autobegin: both rows are in the transaction the single commit ends.
    session: Session = SessionLocal()
    session.add(ProcessedEvent(key=f"event-{event_id}"))
    session.add(Account(id=event_id, balance=0))
    session.commit()


@shared_task
def session_and_begin(event_id):
    with Session(engine) as session, session.begin():
        session.add(ProcessedEvent(key=f"event-{event_id}"))
        session.add(Account(id=event_id, balance=0))


@shared_task
def sessionmaker_begin_twice(event_id):
    with SessionLocal.begin() as session:
        session.add(ProcessedEvent(key=f"event-{event_id}"))
    with SessionLocal.begin() as session:
        session.add(Account(id=event_id, balance=0))  # expect: JC103


@shared_task
def sessionmaker_begin_once(event_id):
    with SessionLocal.begin() as session:
        session.add(ProcessedEvent(key=f"event-{event_id}"))
        session.add(Account(id=event_id, balance=0))


@shared_task
def engine_begin_text(event_id):
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO processed_events (key) VALUES (:key)"), {"key": f"event-{event_id}"})
    with engine.connect() as conn:
        # expect: JC103
        conn.execute(text("UPDATE accounts SET balance = 0 WHERE id = :id"), {"id": event_id})
        conn.commit()


@shared_task
def engine_begin_core(event_id):
    with engine.begin() as conn:
        conn.execute(insert(processed_events).values(key=f"event-{event_id}"))
    with engine.begin() as conn:
        conn.execute(update(accounts).where(accounts.c.id == event_id).values(balance=0))  # expect: JC103


@shared_task
def engine_begin_once(event_id):
    with engine.begin() as conn:
        conn.execute(insert(processed_events).values(key=f"event-{event_id}"))
        conn.execute(update(accounts).where(accounts.c.id == event_id).values(balance=0))
