# jobcheck-test: select=JC201,JC501
# OCA queue_job, as its documentation writes it: `records.with_delay(...).method(...)` and
# `records.delayable(...).method(...).delay()` store a job that runs `method` of the records'
# model later (`self.env['<model>']` and a loop's record are read as any model of ours that
# defines it). A job is retried only when it raises `RetryableJobError` (up to `max_retries` runs,
# default 5); any other exception fails it. `@api.autovacuum` methods run daily from base's cron.
import requests
from odoo import api, fields, models
from odoo.addons.queue_job.exception import RetryableJobError


class ResPartner(models.Model):
    _inherit = "res.partner"

    crm_ref = fields.Char()

    def action_export(self):
        for partner in self:
            partner.with_delay(priority=5, max_retries=3).export_to_crm()
        self.env["crm.note"].with_delay(identity_key="notes").push_notes(self.ids)
        self.delayable(channel="root.crm").check_then_export().delay()

    def export_to_crm(self):  # expect: JC501
        requests.post("https://crm.example/partners", json={"name": self.name})  # expect: JC201
        try:
            self._export_addresses()
        except requests.ConnectionError as exc:
            raise RetryableJobError("CRM unreachable", seconds=60) from exc

    def check_then_export(self):  # expect: JC501
        if not self.crm_ref:
            raise RetryableJobError("reference not assigned yet")  # retried before any effect
        requests.post("https://crm.example/partners/" + self.crm_ref, json={"name": self.name})

    def _export_addresses(self):
        requests.get("https://crm.example/addresses")

    def export_now(self):
        # Not deferred: a user's button runs it in the request.
        requests.post("https://crm.example/partners", json={"name": self.name})

    def with_context_only(self):
        return self.with_context(lang="en_US").export_now()

    @api.autovacuum
    def _gc_export_logs(self):  # expect: JC501
        self.env["crm.export.log"].search([("done", "=", True)]).unlink()


class CrmNote(models.Model):
    _name = "crm.note"

    def push_notes(self, partner_ids):  # expect: JC501
        requests.post("https://crm.example/notes", json={"partners": partner_ids})  # never retried


class NotAModel:
    _name = "crm.note"

    def push_notes(self, partner_ids):
        return partner_ids
