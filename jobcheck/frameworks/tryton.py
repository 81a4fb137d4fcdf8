"""Tryton's scheduled actions and queue:

- `ir.cron`: a scheduled action names the method it runs as `"<model>|<method>"`, offered in the
  `method` selection of the model whose `__name__` is `'ir.cron'` (written there, or added by a
  module's `Cron.__setup__`: `cls.method.selection.append(('account.invoice|post', "Post"))`).
  The method of each class registered under that model name (`__name__ = 'account.invoice'`) is
  a periodic job. The cron worker runs it once per tick; a run that raises is logged, and the
  next tick runs it again: no retry.
- the queue: `Model.__queue__.method(records, ...)` (also `cls.__queue__`, `self.__class__.__queue__`)
  stores a task that a worker runs later, in its own transaction: `method` of that model is a
  task (on a record of a model not known here, `record.__class__.__queue__.send(...)`, the method
  of each model that defines it). How the worker retries it is set in its configuration, not in
  the code: unknown.
- `ir.trigger`: a trigger's action names a method the same way, offered in the `action` selection
  of the `'ir.trigger'` model; Tryton runs it when the trigger's condition holds on records
  created, written, deleted or come due: the method is a task.
"""

from __future__ import annotations

import re

from ..analysis.jobs import Anchor, Registration
from ..analysis.project import Project
from ..analysis.values import leaves_within, lit

# "account.invoice|post_invoices": a model's dotted name, a bar, a method name.
_CRON_METHOD = re.compile(r"^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+\|[a-z_][a-z0-9_]*$")
_QUEUE = ".__queue__."
# The models whose selection field offers methods to run, and how what it names is run: a
# scheduled action's on its interval, a trigger's action as a task.
_SELECTIONS = {"ir.cron": ("method", "schedule", "periodic"), "ir.trigger": ("action", "enqueue", "task")}


class Tryton:
    name = "tryton"

    def find_jobs(self, project: Project) -> list:
        return []

    def find_registrations(self, project: Project) -> list[Registration]:
        models = _models(project)
        if not models:
            return []
        model_of = {cls.qualname: name for name, classes in models.items() for cls in classes}
        regs = []
        for offering, (field, trigger, kind) in _SELECTIONS.items():
            for cls in models.get(offering, ()):
                module = project.module_of_class(cls)
                for text, anchor in _selected_methods(project, cls, module, field):
                    model, _, method = text.partition("|")
                    for target in _methods(project, models, model, method):
                        regs.append(Registration(target, self.name, trigger, anchor, kind=kind))
        for module in project.modules.values():
            for fn in module.functions.values():
                for ev in fn.events:
                    if ev.kind != "call" or not (_QUEUE in (ev.name or "") or ev.name is None and ev.receiver == "__queue__"):
                        continue
                    anchor = Anchor(module.path, ev.line, ev.col, ev.end_line, ev.end_col)
                    if ev.name is None:
                        # `record.__class__.__queue__.send(...)` on a record of a model not known
                        # here: the models that define it.
                        regs.extend(Registration(t, self.name, "enqueue", anchor)
                                    for name in models for t in _methods(project, models, name, ev.attr))
                        continue
                    owner, _, method = (ev.name or "").rpartition(_QUEUE)
                    owner = owner.removesuffix("().__class__").removesuffix("()")
                    # The model's classes that define it (none through `Pool().get('ir.cron')`: no
                    # class of ours is named); or the class it is called on, a mixin that defines it
                    # (`ChatMixin.__queue__._chat_dispatch`) and has no model name.
                    targets = _methods(project, models, model_of.get(owner), method)
                    if not targets and owner.endswith("Pool().get"):
                        # `Customer = Pool().get('account.payment.stripe.customer')` ...
                        # `Customer.__queue__.stripe_update(...)`: the model a lookup here names that defines it.
                        targets = [t for name in _looked_up(project, fn) for t in _methods(project, models, name, method)]
                    if not targets and f"{owner}.{method}" in project.functions:
                        targets = [f"{owner}.{method}"]
                    regs.extend(Registration(t, self.name, "enqueue", anchor) for t in targets)
        return regs


def _models(project: Project) -> dict[str, list]:
    """Tryton model name -> the classes registered under it (`__name__ = 'ir.queue'`)."""
    out: dict[str, list] = {}
    for cls in project.classes.values():
        value = cls.attrs.get("__name__")
        name = lit(value[0], None) if value else None
        if isinstance(name, str) and "." in name:
            out.setdefault(name, []).append(cls)
    return out


def _selected_methods(project: Project, cls, module, field: str) -> list[tuple[str, Anchor]]:
    """The `"<model>|<method>"` strings an `ir.cron` (`ir.trigger`) class offers: in its `method`
    (`action`) field's selection, or added to it in one of its methods."""
    found = []
    value = cls.attrs.get(field)
    if value:
        anchor = Anchor(module.path, value[1], value[2], value[1], value[2])
        found.extend((text, anchor) for text in _cron_strings(value[0]))
    for name in cls.methods:
        fn = project.functions.get(f"{cls.qualname}.{name}")
        for ev in fn.events if fn is not None else ():
            if ev.kind == "call" and f".{field}.selection." in (ev.name or "") and ev.attr in ("append", "extend", "insert"):
                anchor = Anchor(module.path, ev.line, ev.col, ev.end_line, ev.end_col)
                found.extend((text, anchor) for arg in ev.args for text in _cron_strings(arg))
    return found


def _cron_strings(value) -> list[str]:
    """The cron method strings in a Value (a selection's list of pairs, a call's arguments)."""
    return [v[1] for v in leaves_within(value) if v[0] == "lit" and isinstance(v[1], str) and _CRON_METHOD.match(v[1])]


def _looked_up(project: Project, fn) -> list[str]:
    """The model names `Pool().get('...')` is given in a function or the functions it is
    defined in (a closure uses its enclosing function's lookups)."""
    names = []
    scopes = fn.qualname.split(".<locals>.")
    for i in range(len(scopes), 0, -1):
        scope = project.functions.get(".<locals>.".join(scopes[:i]))
        for ev in scope.events if scope is not None else ():
            if ev.kind == "call" and (ev.name or "").endswith("Pool().get") and ev.args:
                name = lit(ev.args[0], None)
                if isinstance(name, str) and name not in names:
                    names.append(name)
    return names


def _methods(project: Project, models: dict, model: str | None, method: str) -> list[str]:
    """The method `method` of each class registered as `model` that defines it."""
    return [f"{cls.qualname}.{method}" for cls in models.get(model, ())
            if method in cls.methods and f"{cls.qualname}.{method}" in project.functions]


FRAMEWORK = Tryton()
