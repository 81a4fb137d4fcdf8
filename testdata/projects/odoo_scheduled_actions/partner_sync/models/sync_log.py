# jobcheck-test: select=JC501
from odoo import models


class SyncLog(models.Model):
    _name = "partner.sync.log"

    def _vacuum(self):  # expect: JC501
        self.search([("done", "=", True)]).unlink()

    def _cron_push_changes(self):
        self.search([]).unlink()  # the cron's model is res.partner, not this one

    def _legacy_rotate(self):  # expect: JC501
        self.search([]).unlink()

    def _compact(self):  # expect: JC501
        self.search([("done", "=", True)]).unlink()
