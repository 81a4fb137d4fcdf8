# jobcheck-test: select=JC501
# Scheduled by `ir_cron.xml` (through `env['partner.sync.log']`) and `ir_cron_legacy.xml` (Odoo 10's
# `model` and `function` fields, and a `model_id` given as `eval="ref('...model_partner_sync_log')"`).
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
