# Tryton: a scheduled action names its method as "<model>|<method>" in the `method` selection of
# the `ir.cron` model (written there or added by a module's `__setup__`); the method of each class
# registered under that model name is a periodic job. `Model.__queue__.method(...)` queues a task.
# Methods no cron names, and names that are no "<model>|<method>" string, are no jobs.
# jobcheck-test: select=JC501
import requests
from trytond.model import ModelSQL, ModelView, fields
from trytond.pool import PoolMeta


class Cron(ModelSQL, ModelView):
    __name__ = 'ir.cron'
    method = fields.Selection([
        ('ir.queue|clean', "Clean Task Queue"),
        ('ir.session|purge', "Purge Sessions"),
    ], "Method", required=True)


class AccountCron(metaclass=PoolMeta):
    __name__ = 'ir.cron'

    @classmethod
    def __setup__(cls):
        super().__setup__()
        cls.method.selection.extend([
            ('account.invoice|post_invoices', "Post Invoices"),
        ])


class Queue(ModelSQL):
    __name__ = 'ir.queue'

    @classmethod
    def clean(cls, date=None):  # expect: JC501
        cls.delete(cls.search([('finished_at', '<', date)]))

    @classmethod
    def push(cls, name, data):
        return cls.create([{'name': name, 'data': data}])


class Invoice(ModelSQL, ModelView):
    __name__ = 'account.invoice'
    state = fields.Selection([('draft', "Draft"), ('posted', "Posted")], "State")

    @classmethod
    def post_invoices(cls):  # expect: JC501
        invoices = cls.search([('state', '=', 'draft')])
        cls.__queue__.send_to_partner(invoices)

    @classmethod
    def send_to_partner(cls, invoices):  # expect: JC501
        for invoice in invoices:
            requests.post("https://partner.example/invoices", json={"number": invoice.number})

    @classmethod
    def draft(cls, invoices):
        cls.write(invoices, {'state': 'draft'})
