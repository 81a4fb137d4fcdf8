"""What an object handed to a framework runs, when the object is an instance rather than a
function: `dramatiq.actor(SendEmail())` runs the instance's `__call__`, `Scheduler(Cleanup())`
runs what its loop calls on it (`self.action.run()`).

A `__call__` inherited from a base class that calls a method of its own that the subclass defines
is a template: `TaskBase.__call__` running `self.run(...)` in an event loop is shared by
every task, and what differs, the job, is each subclass's `run`.
"""

from __future__ import annotations

from ..analysis.names import canonical_in, target
from ..analysis.project import Project
from ..analysis.summary import FunctionSummary


def method_body(project: Project, cls_qualname: str, method: str) -> FunctionSummary | None:
    """The function `cls_qualname().method()` runs; for `__call__` inherited from a base class,
    the subclass's hook it calls, if any."""
    fn = project.function_for(project.canonical(f"{cls_qualname}().{method}"))
    if fn is None or method != "__call__" or not fn.class_qualname or fn.class_qualname == cls_qualname:
        return fn  # a named method inherited (`Scheduler(SearchQueue())` running GenericQueue.run) is the job
    own = f"{fn.class_qualname}()."
    for ev in fn.events:
        if ev.kind != "call" or not ev.name or not ev.name.startswith(own) or "." in ev.name[len(own):]:
            continue
        hook = project.function_for(project.canonical(f"{cls_qualname}().{ev.attr}"))
        if hook is not None and hook is not fn and hook.class_qualname != fn.class_qualname:
            return hook
    return fn


def constructed_class(project: Project, module, value: list | None) -> str | None:
    """The class a Value constructs (`SendEmail()`, `tasks.Cleanup(interval=5)`), if analysed,
    also through a local or module-level variable holding the instance."""
    if value and value[0] == "name" and value[1] and value[1].endswith("()"):  # a local holding one
        name = canonical_in(project, module, value[1][:-2]) or ""
        return name if name in project.classes else None
    value = project.deref(value) if value and value[0] == "name" else value
    if not value or value[0] != "call" or not value[1]:
        return None
    name = canonical_in(project, module, value[1]) or ""
    return name if name in project.classes else None


def called_function(project: Project, module, value: list | None, method: str = "__call__") -> FunctionSummary | None:
    """The function a callable Value runs when called (or its `method`, for an instance): a
    function or bound method by name, or an instance of an analysed class."""
    cls = constructed_class(project, module, value)
    if cls is not None:
        return method_body(project, cls, method)
    if method != "__call__":
        return None
    qualname = target(project, module, value)
    return project.functions.get(qualname) if qualname else None
