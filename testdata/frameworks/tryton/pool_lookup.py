# jobcheck-test: select=JC501
# Tryton's queue reached through the pool: `Customer = Pool().get('<model>')` then
# `Customer.__queue__.method(...)` (here in a closure the enclosing method defines) queues the
# method of the class registered under that model name. A model the lookup does not name, and one
# that does not define the method, are not queued.
import requests
from trytond.model import ModelSQL
from trytond.pool import Pool, PoolMeta


class Customer(ModelSQL):
    __name__ = 'payment.provider.customer'

    @classmethod
    def provider_update(cls, customers):  # expect: JC501
        for customer in customers:
            requests.post("https://provider.example/customers", json={"id": customer.provider_id})


class Account(ModelSQL):
    __name__ = 'payment.provider.account'

    @classmethod
    def provider_update(cls, accounts):
        requests.post("https://provider.example/accounts", json={"n": len(accounts)})


class Party(metaclass=PoolMeta):
    __name__ = 'party.party'

    @classmethod
    def on_write(cls, parties, values):
        pool = Pool()
        Customer = pool.get('payment.provider.customer')
        callback = super().on_write(parties, values)

        def update():
            Customer.__queue__.provider_update(sum((p.customers for p in parties), ()))
        callback.append(update)
        return callback
