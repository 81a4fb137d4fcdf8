# Fields named `key` that are domain data, not idempotency records: a product variant's key, a
# translation key. Nothing here records that a piece of work was done, so JC103 has no key
# transaction to compare the writes against. Nor is a local dict's `update` a database write.
import logging

from celery import shared_task
from django.db import IntegrityError, transaction

from billing.models import Invoice, ProcessedInvoice
from catalog.models import ProcessedRename, Product, Translation, Variant

logger = logging.getLogger(__name__)


@shared_task
def import_variants(product_id, rows):
    product = Product.objects.get(id=product_id)
    for row in rows:
        variant, _ = Variant.objects.get_or_create(product=product, key=row["sku"])
        Variant.objects.filter(id=variant.id).update(price=row["price"])
    Product.objects.filter(id=product_id).update(imported=True)


@shared_task
def sync_translations(locale, strings):
    with transaction.atomic():
        for key, text in strings.items():
            Translation.objects.get_or_create(locale=locale, key=key, defaults={"text": text})
    Product.objects.filter(locale=locale).update(translated=True)


@shared_task
def copy_variant(variant_id):
    source = Variant.objects.values("key", "price").get(id=variant_id)
    source.update({"price": 0})
    data = {"product_id": 1}
    data.update(source)
    Variant.objects.create(**data)


@shared_task
def rename_variant(variant_id, new_key):
    # A real key record, in one transaction with the write; then a dict built from a query.
    with transaction.atomic():
        ProcessedRename.objects.create(idempotency_key=f"rename-{variant_id}-{new_key}")
        Variant.objects.filter(id=variant_id).update(key=new_key)
    fields = Variant.objects.filter(id=variant_id).values().first()
    fields.update(renamed=True)
    return fields


@shared_task
def migrate_variants(product_id):
    # A setting made sure of before the work: its `created` only chooses a log line, so it gates
    # nothing (the marker of each row migrated is written with it).
    field, created = Variant.objects.get_or_create(key="migrated", defaults={"price": 0})
    if created:
        logger.info("created the marker field")
    Product.objects.filter(id=product_id).update(imported=True)


@shared_task
def import_once(product_id, day):
    # A key derived for deduplication, gating the work: an idempotency record, recorded with no
    # transaction around the writes it gates.
    _, created = Variant.objects.get_or_create(key=f"import-{product_id}-{day}")
    if not created:
        return
    Product.objects.filter(id=product_id).update(imported=True)  # expect: JC103


def enqueue_run(invoice_id):
    """A row made, or the one already there handed back on the unique violation: a get-or-create
    whose caller goes on either way; the key gates nothing."""
    try:
        with transaction.atomic():
            return ProcessedInvoice.objects.create(dedupe_key=invoice_id)
    except IntegrityError:
        return ProcessedInvoice.objects.filter(dedupe_key=invoice_id).first()


@shared_task
def run_due(invoice_id):
    run = enqueue_run(invoice_id)
    Invoice.objects.filter(id=invoice_id).update(run_id=run.id)


def claim_run(invoice_id):
    """The unique violation says another attempt took it: a gate."""
    try:
        with transaction.atomic():
            ProcessedInvoice.objects.create(dedupe_key=invoice_id)
        return True
    except IntegrityError:
        return False


@shared_task
def run_claimed(invoice_id):
    if not claim_run(invoice_id):
        return
    Invoice.objects.filter(id=invoice_id).update(status="run")  # expect: JC103
