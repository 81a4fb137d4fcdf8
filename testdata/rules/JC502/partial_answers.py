# Five-questions sections with gaps and placeholders.
from celery import shared_task


@shared_task
def missing_two(order_id):  # expect: JC502
    """Reliability:
        Runs twice: safe.
        Overlaps: no.
        Retries: none.
    """


@shared_task
def placeholders(order_id):  # expect: JC502
    """Sync one order.

    Reliability:
        Runs twice: TODO
        Overlaps: TBD
        Dies mid-run: ?
        Retries: none configured.
        Idempotent: yes.
    """


@shared_task
def complete(order_id):
    """Sync one order.

    Reliability:
        Runs twice: safe; upsert by order id.
        Overlaps: harmless; the same rows are written.
        Dies mid-run: the next run resumes; every write is an upsert.
        Retries: none configured.
        Idempotent: yes.
    """
