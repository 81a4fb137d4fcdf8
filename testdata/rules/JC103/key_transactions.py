# The key recorded in one transaction, the effect's writes in another, or none.
from celery import shared_task
from django.db import connection, transaction

from billing.models import Invoice, Ledger, ProcessedInvoice


def post_ledger(invoice_id):
    Ledger.objects.create(invoice_id=invoice_id, amount=1)


@shared_task
def settle(invoice_id):
    with transaction.atomic():
        ProcessedInvoice.objects.create(key=f"settle-{invoice_id}")
    Invoice.objects.filter(id=invoice_id).update(status="settled")  # expect: JC103
    post_ledger(invoice_id)  # expect: JC103


@shared_task
def no_transaction(invoice_id):
    ProcessedInvoice.objects.get_or_create(key=f"close-{invoice_id}")
    Invoice.objects.filter(id=invoice_id).update(status="closed")  # expect: JC103


@shared_task
def one_transaction(invoice_id):
    with transaction.atomic():
        _, created = ProcessedInvoice.objects.get_or_create(key=f"pay-{invoice_id}")
        if not created:
            return
        Invoice.objects.filter(id=invoice_id).update(status="paid")
        post_ledger(invoice_id)


@shared_task
@transaction.atomic
def decorated_transaction(invoice_id):
    ProcessedInvoice.objects.create(key=f"void-{invoice_id}")
    Invoice.objects.filter(id=invoice_id).update(status="void")


@shared_task
def raw_sql(invoice_id):
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO processed_invoice (key) VALUES (%s)", [f"raw-{invoice_id}"])
    with transaction.atomic():
        Invoice.objects.filter(id=invoice_id).update(status="raw")  # expect: JC103


@shared_task
def no_key_recorded(invoice_id):
    # Plain writes with no key: JC103 has nothing to compare against.
    Invoice.objects.filter(id=invoice_id).update(status="seen")
    Ledger.objects.create(invoice_id=invoice_id, amount=0)


@shared_task
def sqlalchemy_session(event_id, session_factory):
    from sqlalchemy.orm import Session

    from billing.tables import Account, ProcessedEvent

    session: Session = session_factory()
    with session.begin():
        session.add(ProcessedEvent(key=f"event-{event_id}"))
    session.add(Account(id=event_id, balance=0))  # expect: JC103


@shared_task
def sqlalchemy_one_transaction(event_id, session_factory):
    from sqlalchemy.orm import Session

    from billing.tables import Account, ProcessedEvent

    session: Session = session_factory()
    with session.begin():
        session.add(ProcessedEvent(key=f"event-{event_id}"))
        session.add(Account(id=event_id, balance=0))


@shared_task
def settings_row_is_not_a_key(invoice_id):
    # A settings table keyed by name, and a log row: neither records an idempotency key.
    from billing.models import EmailLog, Setting

    Setting.objects.create(key="last_settle", value=str(invoice_id))
    EmailLog.objects.create(invoice_id=invoice_id, subject="settled")
    Invoice.objects.filter(id=invoice_id).update(status="logged")
