"""InvenTree and its plugins, run by InvenTree's background worker (django-q):

- `ScheduleMixin`: `SCHEDULED_TASKS = {"sync": {"func": "sync_prices", "schedule": "H"}}` on a
  plugin class (its own or a base's) becomes a django-q `Schedule` per entry. A `func` without a
  dot is a method of the plugin, which the plugin registry calls on the active instance; a dotted
  one names a function. Periodic jobs (`"repeats": 1` with schedule `"O"`: one delayed run).
- `offload_task(func, *args, ...)` (`InvenTree.tasks`): `func`, a callable or a dotted path, runs
  in the worker (or inline when no worker runs): a task.
- `@scheduled_task(ScheduledTask.DAILY)` (`InvenTree.tasks`): a periodic task of InvenTree's own.
- `EventMixin`: the plugin's `process_event(event, ...)` runs in the worker, one task per event
  the plugin wants (InvenTree's `register_event` offloads it).
- `LabelPrintingMixin`: InvenTree prints in the worker (its API offloads `report.tasks.print_labels`,
  which calls the plugin's `print_labels`, by default its `print_label` per item): the plugin's
  own `print_labels` where it overrides it, else its `print_label`.

Retries are the deployment's: InvenTree's `Q_CLUSTER` uses the ORM broker (a failed task runs
again, up to `INVENTREE_BACKGROUND_MAX_ATTEMPTS`, 5 by default) unless a Redis cache is
configured, which becomes the broker and pops tasks (no retry). A plugin cannot tell which, so
no retry policy is claimed.
"""

from __future__ import annotations

from ..analysis.decorators import decorated_functions
from ..analysis.jobs import Anchor, JobSite, Registration
from ..analysis.names import canonical_in, forwarded, function_by_path, target
from ..analysis.program import calls_named, classes_where
from ..analysis.project import Project
from ..analysis.values import dict_items, lit
from .base import job_from_function
from .instances import method_body

OFFLOAD = ("InvenTree.tasks.offload_task",)
SCHEDULED_TASK = ("InvenTree.tasks.scheduled_task",)
_MIXINS = ("plugin.mixins.", "plugin.base.")  # `from plugin.mixins import ScheduleMixin`, or its own module


def _mixin(project: Project, cls, name: str) -> bool:
    return any(b.startswith(_MIXINS) and b.rpartition(".")[2] == name for b in project.class_bases(cls))


class InvenTree:
    name = "inventree"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return name in SCHEDULED_TASK

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        for d in decorated_functions(project, self.name):
            if (canonical_in(project, d.module, d.value[1]) or d.name) in SCHEDULED_TASK:
                sites[d.function.qualname] = job_from_function(project, d.function, self.name, "periodic", triggers={"schedule"})
        for mixin, methods in (("EventMixin", ("process_event",)), ("LabelPrintingMixin", ("print_labels", "print_label"))):
            for cls in classes_where(project, lambda c, m=mixin: _mixin(project, c, m)):
                # The first of `methods` the application defines (its own or a base's) is what runs.
                fn = next(filter(None, (method_body(project, cls.qualname, m) for m in methods)), None)
                if fn is None or fn.qualname in sites or not project.the_applications(project.module_of_class(cls)):
                    continue
                sites[fn.qualname] = job_from_function(project, fn, self.name, "task", triggers={"enqueue"})
        return list(sites.values())

    def find_registrations(self, project: Project) -> list[Registration]:
        regs = []
        for cls in classes_where(project, lambda c: "SCHEDULED_TASKS" in c.attrs or "get_scheduled_tasks" in c.methods):
            if _mixin(project, cls, "ScheduleMixin"):
                regs.extend(self._scheduled(project, cls))
        for site in calls_named(project, ("offload_task",)):
            if canonical_in(project, site.module, site.event.name) not in OFFLOAD or not site.event.args:
                continue
            ref = site.event.args[0]
            qualname = target(project, site.module, ref)
            forward = None if qualname else forwarded(site, ref)
            if qualname or forward:
                regs.append(Registration(qualname or "", self.name, "enqueue", site.anchor, forward=forward))
        return regs

    def _scheduled(self, project: Project, cls) -> list[Registration]:
        """Each entry of a plugin's `SCHEDULED_TASKS` and of the dict its `get_scheduled_tasks()`
        override returns as written (InvenTree reads what that returns; an override that builds
        on `SCHEDULED_TASKS` keeps its entries): a method by name, or a function by path."""
        module = project.module_of_class(cls)
        tables = []
        hook = project.functions.get(f"{cls.qualname}.get_scheduled_tasks") if "get_scheduled_tasks" in cls.methods else None
        if hook is not None and hook.returns_dict:
            tables.append((hook.returns_dict, project.anchor_of(hook)))
        if "SCHEDULED_TASKS" in cls.attrs:
            value, line, col = cls.attrs["SCHEDULED_TASKS"][:3]
            tables.append((value, Anchor(module.path, line, col, line, col + len("SCHEDULED_TASKS"))))
        return [reg for value, anchor in tables for reg in self._entries(project, cls, module, value, anchor)]

    def _entries(self, project: Project, cls, module, value, anchor) -> list[Registration]:
        regs = []
        for _key, entry in dict_items(value):
            options = {lit(k): v for k, v in dict_items(entry) if isinstance(lit(k), str)}
            func = lit(options.get("func"), None)
            if not isinstance(func, str) or not func.strip():
                continue
            func = func.strip()
            if "." in func:
                qualname = function_by_path(project, module, func)
            else:
                fn = method_body(project, cls.qualname, func)
                qualname = fn.qualname if fn is not None else None
            if qualname:
                once = str(lit(options.get("schedule"), "")).upper().strip() == "O"
                settings = {k: v for k, v in options.items() if k in ("schedule", "minutes", "repeats")}
                regs.append(Registration(qualname, self.name, "schedule", anchor, kind="task" if once else "periodic",
                                         settings=settings))
        return regs


FRAMEWORK = InvenTree()
