"""A payment SDK the catalog does not name: a method of one of its objects whose name says it
moves money (`initiate_payment`, `create_payout`, `charge`) is a payment. Asking about one
(`get_payment_status`) is not; nor is the application's own method of that name, whose body is
read instead, or a function of that name imported from a module not analysed here (no object of a
library: perhaps the application's own, under another name); nor is one given an idempotency key."""

from bankkit import BankClient
from celery import shared_task
from orders.billing import charge as charge_order

bank = BankClient("https://bank.example")


class Ledger:
    def initiate_payment(self, batch):
        self.rows = batch  # the application's own: followed, and it only keeps the batch


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def disburse(batch):
    bank.initiate_payment(batch)  # expect: JC201


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def pay_out(seller):
    bank.payouts.create_payout(seller.account, seller.balance)  # expect: JC201


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def charge_card(card, amount):
    bank.charge(card, amount)  # expect: JC201


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def check(payment_id):
    return bank.get_payment_status(payment_id)


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def record(batch):
    Ledger().initiate_payment(batch)


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def keyed(batch):
    bank.initiate_payment(batch, idempotency_key=f"batch-{batch.id}")


@shared_task(autoretry_for=(IOError,), max_retries=3, retry_backoff=True)
def bill(order):
    charge_order(order)
