# jobcheck-test: select=JC501
# Tryton's triggers: a module offers an action as "<model>|<method>" in the `action` selection of
# the `ir.trigger` model; Tryton runs it when the trigger's condition holds on records created,
# written, deleted or come due: a task. `record.__class__.__queue__.method(...)` on a record whose
# model is not known here queues the method of each model that defines it. A selection string on
# another field, and a method no trigger names, are no jobs.
import requests
from trytond.model import ModelSQL, fields
from trytond.pool import PoolMeta


class Trigger(metaclass=PoolMeta):
    __name__ = 'ir.trigger'
    notification = fields.Many2One('notification.webhook', "Webhook")

    @classmethod
    def __setup__(cls):
        super().__setup__()
        cls.action.selection.append(('notification.webhook|trigger', "Webhook Notification"))
        cls.model.selection.append(('notification.webhook|not_an_action', "Not an action"))


class Webhook(ModelSQL):
    __name__ = 'notification.webhook'
    url = fields.Char("URL")
    delay = fields.TimeDelta("Delay")

    @classmethod
    def trigger(cls, records, trigger):  # expect: JC501
        webhook = trigger.notification
        if webhook.delay:
            webhook.__class__.__queue__._post_queued(webhook, [r.id for r in records])
        else:
            webhook.post(records)

    def _post_queued(self, ids):  # expect: JC501
        requests.post(self.url, json={"ids": ids})

    def post(self, records):
        requests.post(self.url, json={"ids": [r.id for r in records]})

    @classmethod
    def not_an_action(cls, records, trigger):
        requests.post("https://hooks.example/", json={})
