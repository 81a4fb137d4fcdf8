# jobcheck-test: select=JC501
# Odoo's scheduled actions: `ir.cron` records in `data/ir_cron.xml` run `model.<method>()` on the
# model their `model_id` names (`model_res_partner` is `res.partner`, which this class extends);
# `env['<model>'].<method>()` in a cron's code names its model; Odoo 10's records name the model
# and the method in fields (`ir_cron_legacy.xml`). A server action (`server_actions.xml`) is run by
# a user, not on a schedule; a method of that name on another model is not the one scheduled.
# A queue_job `queue.job.function` record (`queue_job_function.xml`) declares a job function and
# the hook the worker runs once it has failed.
import requests
from odoo import models


class ResPartner(models.Model):
    _inherit = "res.partner"

    def _cron_push_changes(self):  # expect: JC501
        for partner in self.search([("write_date", ">", "2024-01-01")]):
            requests.post("https://crm.example/partners", json={"name": partner.name})

    def _cron_refresh_scores(self):  # expect: JC501
        self.search([]).write({"score": 0})

    def _push_one(self):  # expect: JC501
        requests.post("https://crm.example/partners", json={"name": self.name})

    def _on_push_failed(self, **kw):  # expect: JC501
        self.write({"crm_state": "failed"})

    def action_push_now(self):
        requests.post("https://crm.example/partners", json={"name": self.name})

    def _cron_not_scheduled(self):
        self.search([]).write({"score": 1})
