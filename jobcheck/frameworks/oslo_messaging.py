"""oslo.messaging endpoints: the objects handed to an RPC server or a notification listener
(`get_rpc_server(transport, target, endpoints)`, `get_notification_listener(...)`,
`get_batch_notification_listener(...)`) are called by the service's worker when a message
arrives. Each public method of an RPC endpoint is a job the API casts (or calls); a notification
endpoint's jobs are its methods named for a priority (`info`, `sample`, `error`...).

The endpoints are read by data flow: a list written at the call, a local variable or a module
variable holding one, an attribute of the instance holding one (`self.endpoints = [self]`: the
service itself, so each subclass of it the application uses), or a parameter of a helper of the
application's own (`rpc.get_server(target, endpoints)`, `[endpoint]`, a constructor's `handlers`
passed by `Service.create(topic, handlers)`) read at its callers, a few helpers up. Endpoints
appended to a list later are not read. An endpoint's methods include those of its bases, not its properties,
class or static methods. oslo.messaging does not redeliver an
RPC message whose handler raised, and a notification only when the endpoint asks (`REQUEUE` with
`allow_requeue=True`): nothing is retried here.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite
from ..analysis.program import calls_named, deco_name
from ..analysis.project import Project
from .base import job_from_function

_SERVERS = {"get_rpc_server": "rpc", "get_notification_listener": "notify", "get_batch_notification_listener": "notify"}
_PRIORITIES = ("audit", "critical", "debug", "error", "info", "sample", "warn")
_NOT_CALLED = ("property", "cached_property", "classmethod", "staticmethod", "setter")


class OsloMessaging:
    name = "oslo_messaging"

    def find_jobs(self, project: Project) -> list[JobSite]:
        found: dict[str, JobSite] = {}
        for site in calls_named(project, tuple(_SERVERS)):
            name = site.name or ""
            if not name.startswith("oslo_messaging."):
                continue
            kind = _SERVERS[name.rpartition(".")[2]]
            for cls, serving in _endpoint_classes(project, site.function, site.event, depth=0):
                for fn in _methods(project, cls, serving):
                    if fn.name.startswith("_") if kind == "rpc" else fn.name not in _PRIORITIES:
                        continue
                    if fn.qualname not in found:
                        found[fn.qualname] = job_from_function(project, fn, self.name, "task", triggers={"enqueue"})
        return list(found.values())

    def find_registrations(self, project: Project) -> list:
        return []


def _methods(project: Project, cls, serving: str | None = None) -> list:
    """The methods an instance of `cls` has, its own and those of the project's bases (the nearest
    first), less properties, class and static methods (not called over RPC), and less those of
    `serving` and its bases, the service class that makes the server (`start`, `stop`)."""
    out, seen = [], set()
    if serving is not None and serving in project.classes:
        seen.update(m for c in (serving, *project.class_bases(project.classes[serving])) if c in project.classes
                    for m in project.classes[c].methods)
    for owner in (cls.qualname, *project.class_bases(cls)):
        klass = project.classes.get(owner)
        for method in klass.methods if klass is not None else ():
            fn = project.functions.get(f"{owner}.{method}")
            if fn is None or method in seen:
                continue
            seen.add(method)
            if not any((deco_name(d[0]) or "").rpartition(".")[2] in _NOT_CALLED for d in fn.decorators):
                out.append(fn)
    return out


def _endpoint_classes(project: Project, fn, ev, depth: int) -> list:
    """(class, the service class whose methods are not endpoints or None) for the project's classes
    whose instances are passed as `endpoints` (third argument)."""
    value = ev.kwargs.get("endpoints") or (ev.args[2] if len(ev.args) > 2 else None)
    sources = ev.kwsrc.get("endpoints", ()) if "endpoints" in ev.kwargs else (ev.argsrc[2] if len(ev.argsrc) > 2 else ())
    names = [fn.events[i].name for i in sources]
    value = project.deref(value) if value and value[0] in ("name", "ref") else value  # `ENDPOINTS = [...]`
    value = _held(project, value) or value  # `self.endpoints`, set to a list in `__init__`
    elements = value[1] if value and value[0] == "seq" else [value] if value else []
    # `[RatingEndpoint()]`, or `[self._rating_endpoint]` typed by its assignment in `__init__`
    names += [e[1] + ("()" if e[0] == "call" else "") for e in elements if e and e[0] in ("call", "name") and e[1]]
    classes = []
    for name in names:
        instance = project.canonical(name) or ""
        if instance.endswith("()") and instance[:-2] == fn.class_qualname:
            # `[self]` in the service class: whichever subclass of it is running, less the service's
            # own methods.
            used = project.used_classes()
            classes += [(sub, fn.class_qualname) for sub in project.subclasses(fn.class_qualname) if sub.qualname in used]
        elif instance.endswith("()") and instance[:-2] in project.classes:
            classes.append((project.classes[instance[:-2]], None))
        elif instance in project.classes:
            classes.append((project.classes[instance], None))
    for param in (e for e in elements if e and e[0] == "param") if depth < 3 else ():
        # `def get_server(target, endpoints): return get_rpc_server(TRANSPORT, target, endpoints)`,
        # or `[endpoint]` of a parameter: what the helper's callers pass there.
        bound = fn.class_qualname and not any((deco_name(d[0]) or "").endswith("staticmethod") for d in fn.decorators)
        at = param[2] - (1 if bound else 0)  # a method's callers do not pass `self` (or `cls`)
        for caller in _callers(project, fn):
            forwarded = _Forwarded(caller.event, at, param[1])
            classes += _endpoint_classes(project, caller.function, forwarded, depth + 1)
    return classes


def _callers(project: Project, fn) -> list:
    """The calls of `fn`; for a constructor, the calls of its class (`Service(...)`, `cls(...)`)."""
    if fn.name == "__init__" and fn.class_qualname in project.classes:
        cls = project.classes[fn.class_qualname]
        return calls_named(project, (cls.name,), lambda p, m, e: (p.canonical(e.name) or "") == cls.qualname)
    return calls_named(project, (fn.name,), lambda p, m, e: p.function_for(p.canonical(e.name)) is fn)


def _held(project: Project, value) -> list | None:
    """What the instance's attribute `value` names was set to (`self.endpoints = [self]`), where
    one assignment in the class or its bases sets it."""
    if not value or value[0] != "name" or "()." not in str(value[1]):
        return None
    owner, _, attr = str(value[1]).rpartition("().")
    cls = project.classes.get(owner)
    if cls is None or "." in attr:
        return None
    found = [v for c in (cls.qualname, *project.class_bases(cls)) if c in project.classes
             for m in project.classes[c].methods if (f := project.functions.get(f"{c}.{m}")) is not None
             for a, _line, receiver, _, v in f.stores if a == attr and receiver == "self"]
    return found[0] if len(found) == 1 else None


class _Forwarded:
    """A call of the helper read as the server call it makes: the argument it passes for the
    helper's parameter (at `at`, or by `name`) as the endpoints."""

    def __init__(self, ev, at: int, name: str) -> None:
        self.args, self.argsrc, self.kwargs, self.kwsrc = [], [], {}, {}
        if name in ev.kwargs:
            self.kwargs["endpoints"], self.kwsrc["endpoints"] = ev.kwargs[name], ev.kwsrc.get(name, ())
        elif 0 <= at < len(ev.args):
            self.kwargs["endpoints"] = ev.args[at]
            self.kwsrc["endpoints"] = ev.argsrc[at] if at < len(ev.argsrc) else ()


FRAMEWORK = OsloMessaging()
