# jobcheck-test: select=JC501
# queue_job before Odoo 14 marks job functions with `@job` (`@job(default_channel=...)`).
from odoo import models
from odoo.addons.queue_job.job import job, related_action


class StockPicking(models.Model):
    _inherit = "stock.picking"

    @job(default_channel="root.stock")
    @related_action(action="related_action_open_picking")
    def validate_async(self):  # expect: JC501
        self.button_validate()

    @job
    def recompute(self):  # expect: JC501
        self.action_assign()

    def not_a_job(self):
        self.action_assign()
