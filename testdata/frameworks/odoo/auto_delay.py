# jobcheck-test: select=JC501
# queue_job's automatic delay: `_patch_job_auto_delay("<method>")` in `_register_hook` turns each
# call of the method into a job, and `<method>_job_options` beside a method gives the options of
# its job (read only by the automatic delay): both name job functions. An `ir.cron` class that
# overrides `_callback` runs in the cron worker for every scheduled action.
import functools

from odoo import api, models


class SaleWorkflow(models.Model):
    _inherit = "sale.workflow.job"

    def _do_confirm(self, order):  # expect: JC501
        order.action_confirm()

    def _do_confirm_job_options(self, order):
        return {"description": f"Confirm {order.name}"}

    def _do_invoice(self, order):  # expect: JC501
        order._create_invoices()

    def _do_cancel(self, order):
        order.action_cancel()

    def _do_cancel_options(self, order):
        return {}

    @api.model
    def _register_hook(self):
        patched = self._patch_job_auto_delay("_do_invoice", context_key="auto_delay_invoice")
        setattr(type(self), "_do_invoice", functools.update_wrapper(patched, getattr(type(self), "_do_invoice")))
        return super()._register_hook()


class IrCron(models.Model):
    _inherit = "ir.cron"

    def _callback(self, cron_name, server_action_id):  # expect: JC501
        return super()._callback(cron_name, server_action_id)

    def method_direct_trigger(self):
        return super().method_direct_trigger()
