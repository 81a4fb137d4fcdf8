"""Odoo's scheduled actions and OCA's queue_job:

- `ir.cron` records in an addon's XML data name a model and the code run on it
  (`<field name="model_id" ref="model_sale_order"/>`, `<field name="code">model._cron_x()</field>`;
  read by `schedule_text.scheduled_actions`). The method of each class registered under that model
  (`_name = 'sale.order'`, or `_inherit = 'sale.order'` extending it) is a periodic job. The cron
  worker runs it on its interval in a transaction of its own; a run that raises is rolled back
  and tried at the next interval: no retry.
- `@api.autovacuum` methods run once a day from base's autovacuum cron: periodic jobs.
- queue_job's `queue.job.function` records in XML data declare a method of a model a job
  function (a task) and may name its `on_fail_method`, a hook the worker runs once the job has
  failed (kind "callback").
- queue_job's automatic delay: `self._patch_job_auto_delay("foo")` makes every call of `foo` a
  job; `foo_job_options` beside `foo` gives that job's options, so it names a job function too.
- an `ir.cron` class overriding `_callback`, which the cron worker calls for each scheduled
  action it runs: a periodic job.
- queue_job: `records.with_delay(...).method(...)` and `records.delayable(...).method(...)` store
  a job that a worker runs later: `method` of the model of `records` is a task (`@job`, queue_job
  before Odoo 14, marks one too). A job is retried only when it raises `RetryableJobError`, up to
  `max_retries` runs (default 5; 0 for no limit), after the seconds it gives or its job function's
  `retry_pattern` (default 10 minutes): any other exception fails it.

A model is found by its name when the call names one (`self`, `self.env['sale.order']` is read
as any model, its name being lost); a recordset of an unknown model (`order.with_delay()` in a
loop) is any model of the project that defines the method.
"""

from __future__ import annotations

from ..analysis.decorators import decorated_functions
from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in
from ..analysis.project import Project
from ..analysis.values import lit
from .base import describe, job_from_function, policy, retry_limit

AUTOVACUUM = ("odoo.api.autovacuum", "openerp.api.autovacuum")
JOB_DECORATORS = ("odoo.addons.queue_job.job.job", "openerp.addons.queue_job.job.job")
RETRYABLE = "odoo.addons.queue_job.exception.RetryableJobError"
DEFAULT_MAX_RETRIES = 5
_DEFERRING = ("with_delay", "delayable")  # `records.with_delay(...).method(...)`
_JOB_OPTIONS = "_job_options"
# What Odoo's cron worker calls on `ir.cron` for each scheduled action it runs: an override runs
# on every tick.
_CRON_WORKER_CALLS = ("_callback",)
SETTINGS = ("max_retries", "identity_key", "eta", "priority", "channel", "description")


class Odoo:
    name = "odoo"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return name in AUTOVACUUM + JOB_DECORATORS

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        for d in decorated_functions(project, self.name):
            name = canonical_in(project, d.module, d.value[1]) or d.name
            if d.function.qualname in sites or not d.function.class_qualname:
                continue
            if name in AUTOVACUUM:
                sites[d.function.qualname] = job_from_function(project, d.function, self.name, "periodic", triggers={"schedule"})
            elif name in JOB_DECORATORS:
                site = job_from_function(project, d.function, self.name, "task", triggers={"enqueue"})
                site.retry = retry_policy({}, d.anchor)
                sites[d.function.qualname] = site
        return list(sites.values())

    def find_registrations(self, project: Project) -> list[Registration]:
        classes = _model_classes(project)
        if not classes:
            return []
        models: dict[str, list] = {}  # model name -> the classes registered under it
        for cls, names in classes:
            for name in names:
                models.setdefault(name, []).append(cls)
        return [*self._data_records(project, models), *self._declared_in_classes(project, models, classes),
                *self._deferred_calls(project, models, classes)]

    def _data_records(self, project: Project, models: dict) -> list[Registration]:
        """What the XML data beside the code names: scheduled actions, job functions and their hooks."""
        regs = []
        for display, line, model, method, made in project.scheduled_actions:
            anchor = Anchor(display, line, 0, line, 0)
            for target in (t for written in _named(models, model) for t in _methods(project, models, written, method)):
                if made == "cron":
                    regs.append(Registration(target, self.name, "schedule", anchor, kind="periodic"))
                elif made == "job":
                    regs.append(Registration(target, self.name, "enqueue", anchor, retry=retry_policy({}, anchor)))
                else:  # a failed job's hook, run by the worker
                    regs.append(Registration(target, self.name, "enqueue", anchor, kind="callback"))
        return regs

    def _declared_in_classes(self, project: Project, models: dict, classes: list) -> list[Registration]:
        """A cron worker's `_callback` overridden, and the methods queue_job delays automatically."""
        regs = []
        for cls, names in classes:
            module = project.module_of_class(cls)
            for method in cls.methods:
                fn = project.functions.get(f"{cls.qualname}.{method}")
                if fn is None:
                    continue
                anchor = project.anchor_of(fn)
                if "ir.cron" in names and method in _CRON_WORKER_CALLS:
                    # The cron worker calls it for every scheduled action it runs.
                    regs.append(Registration(fn.qualname, self.name, "schedule", anchor, kind="periodic"))
                elif method.endswith(_JOB_OPTIONS) and method != _JOB_OPTIONS:
                    # `foo_job_options` gives the options of `foo`'s job when queue_job delays it
                    # automatically (`_patch_job_auto_delay("foo")`): `foo` is a job function.
                    delayed = method.removesuffix(_JOB_OPTIONS)
                    regs.extend(Registration(t, self.name, "enqueue", anchor, retry=retry_policy({}, anchor))
                                for n in names for t in _methods(project, models, n, delayed))
                for ev in fn.events:
                    delayed = lit(ev.args[0], None) if ev.kind == "call" and ev.attr == "_patch_job_auto_delay" and ev.args else None
                    if isinstance(delayed, str):
                        where = Anchor(module.path, ev.line, ev.col, ev.end_line, ev.end_col)
                        regs.extend(Registration(t, self.name, "enqueue", where, retry=retry_policy({}, where))
                                    for n in names for t in _methods(project, models, n, delayed))
        return regs

    def _deferred_calls(self, project: Project, models: dict, classes: list) -> list[Registration]:
        """`records.with_delay(...).method(...)` and `records.delayable(...).method(...)`."""
        regs = []
        model_of = {cls.qualname: names for cls, names in classes}
        for module in project.modules.values():
            for fn in module.functions.values():
                for ev in fn.events:
                    if ev.kind != "call" or ev.receiver not in _DEFERRING or not ev.attr:
                        continue
                    deferring = next((e for e in fn.events if e.kind == "call" and e.attr == ev.receiver
                                      and (e.line, e.col) == (ev.line, ev.col)), None)
                    if deferring is None:
                        continue  # `x.delayable.method()`: not the call that defers
                    owner = (ev.name or "").rpartition(f".{ev.receiver}().")[0]
                    names = model_of.get(owner.removesuffix("()"), ()) if owner.endswith("()") else ()
                    targets = [t for n in names for t in _methods(project, models, n, ev.attr)] \
                        or [t for n in models for t in _methods(project, models, n, ev.attr)]
                    anchor = Anchor(module.path, ev.line, ev.col, ev.end_line, ev.end_col)
                    retry = retry_policy(deferring.kwargs, anchor)
                    settings = {k: v for k, v in deferring.kwargs.items() if k in SETTINGS}
                    regs.extend(Registration(t, self.name, "enqueue", anchor, retry=retry, settings=settings)
                                for t in dict.fromkeys(targets))
        return regs


def retry_policy(kwargs: dict, anchor: Anchor) -> RetryPolicy:
    limit = retry_limit(kwargs.get("max_retries"), RetryLimit.known(DEFAULT_MAX_RETRIES - 1), unlimited=(0,), attempts=True)
    written = describe(kwargs, ("max_retries",)) or f"max_retries={DEFAULT_MAX_RETRIES} (default)"
    # The exception is what retries, wherever it is raised: a retry repeats what ran before it.
    return policy(f"{written}; retried on `raise RetryableJobError`", anchor, retries=limit, on=(RETRYABLE,),
                  explicit=True, from_default="max_retries" not in kwargs, backoff="constant")


def _model_classes(project: Project) -> list[tuple]:
    """Each Odoo model class of the project with the model names it is registered under: its
    `_name`, or the models its `_inherit` extends."""
    out = []
    for cls in project.classes.values():
        if not any(b and b.startswith(("odoo.", "openerp.")) for b in cls.bases):
            continue
        names = []
        for attr in ("_name",) if "_name" in cls.attrs else ("_inherit",):
            value = cls.attrs.get(attr)
            written = lit(value[0], None) if value else None
            for name in written if isinstance(written, (list, tuple)) else (written,):
                if isinstance(name, str) and name:
                    names.append(name)
        if names:
            out.append((cls, names))
    return out


def _named(models: dict, written: str) -> list[str]:
    """The model names a cron record's model means: the name, or the `ir.model` record id
    Odoo derives from it (`sale.order` -> `model_sale_order`)."""
    return [name for name in models if written in (name, "model_" + name.replace(".", "_"))]


def _methods(project: Project, models: dict, model: str, method: str) -> list[str]:
    """The method `method` of each class registered as `model` that defines it."""
    return [f"{cls.qualname}.{method}" for cls in models.get(model, ())
            if method in cls.methods and f"{cls.qualname}.{method}" in project.functions]


FRAMEWORK = Odoo()
