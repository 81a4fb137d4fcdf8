"""oslo.messaging endpoints: the objects handed to an RPC server or a notification listener
(`get_rpc_server(transport, target, endpoints)`, `get_notification_listener(...)`,
`get_batch_notification_listener(...)`) are called by the service's worker when a message
arrives. Each public method of an RPC endpoint is a job the API casts (or calls); a notification
endpoint's jobs are its methods named for a priority (`info`, `sample`, `error`...).

The endpoints are read by data flow: a list written at the call, a local variable or a module
variable holding one, an attribute of the instance holding one (`self.endpoints = [self]`: the
service itself, so each subclass of it the application uses), or a parameter of a helper of the
application's own (`rpc.get_server(target, endpoints)`, `[endpoint]`, a constructor's `handlers`
passed by `Service.create(topic, handlers)`) read at its callers, a few helpers up, or what a
helper of the application's own returns (`self._get_endpoints(plugins)`). Endpoints
appended to a list later are not read. An endpoint's methods include those of its bases, not its properties,
class or static methods.

Where the server's endpoints cannot be followed (a manager loaded by its dotted path, a proxy),
the client says what it calls: an RPC client's `cast`/`call` names the method second
(`cctxt.cast(ctxt, "start_lcm_op", ...)`, also through a helper's parameter its callers fill; not
another library's `subprocess.call`). A class of the application that implements most (3/4) of
the names one client class calls, two of them beyond a service's life cycle (`start`, `stop`),
serves them: each such method is a job, and so are its subclasses' overrides. Not the client, a
subclass of it, nor a method that reaches a cast of its own name (the calling side: a REST
controller calling the client); where several classes qualify, the server is the one handing the
calls to another object's methods of the same names (`self.storage.create_zone(...)`), not that
object. oslo.messaging does not redeliver an
RPC message whose handler raised, and a notification only when the endpoint asks (`REQUEUE` with
`allow_requeue=True`): nothing is retried here.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite
from ..analysis.program import bound_argument, calls_a_function, calls_named, calls_of, deco_name
from ..analysis.summary import MODULE_CODE
from ..analysis.project import Project
from .base import job_from_function

# A service's life cycle, which oslo.service (or the application's launcher) calls, not a client:
# not endpoints when the service serves itself.
_SERVICE_METHODS = ("start", "stop", "wait", "reset", "run", "serve", "kill", "restart", "reload", "terminate",
                    "init_host", "cleanup_host", "del_host", "pre_start_hook", "post_start_hook", "periodic_tasks",
                    "graceful_shutdown", "create")
_SERVERS = {"get_rpc_server": "rpc", "get_notification_listener": "notify", "get_batch_notification_listener": "notify"}
_PRIORITIES = ("audit", "critical", "debug", "error", "info", "sample", "warn")
_CASTS = ("cast", "call")
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
        for fn in _called_by_name(project):
            if fn.qualname not in found:
                found[fn.qualname] = job_from_function(project, fn, self.name, "task", triggers={"enqueue"})
        return list(found.values())

    def find_registrations(self, project: Project) -> list:
        return []


def _called_by_name(project: Project) -> list:
    """The methods RPC clients call by name (see the module's doc), where the application uses
    oslo.messaging."""
    if not any("oslo_messaging" in m.imported for m in project.modules.values()):
        return []
    groups: dict[str, set[str]] = {}  # the class (or module) a name is written in -> the names
    casting: dict[str, set[str]] = {}  # a function on the calling side -> the names it casts
    for site in calls_named(project, _CASTS):
        if (not project.the_applications(site.module) or site.function.name == MODULE_CODE
                or calls_a_function(project, site.module, site.event)  # the application's own `cast(name)`
                or not _rpc_client(project, site)):
            continue
        # `cast(ctxt, method, **kwargs)`: the method is named second.
        given = list(_names_given(project, site.function, site.event.args[1], 0)) if len(site.event.args) > 1 else []
        for name, group, where in given:
            groups.setdefault(group, set()).add(name)
            casting.setdefault(where, set()).add(name)
            casting.setdefault(site.function.qualname, set()).add(name)
    out: dict[str, object] = {}
    for group, names in groups.items():
        qualifying = []
        for cls in project.classes.values():
            if not project.the_applications(project.module_of_class(cls)) or any(c.qualname == group for c in project._mro(cls)):
                continue  # the client itself, or a subclass of it
            # A server implements most of what one client calls, more than a service's life cycle
            # (a driver sharing two verbs with it, a `Stopwatch` with `start` and `stop`, does not).
            served = [fn for m in cls.methods if m in names and not m.startswith("_")
                      and (fn := project.functions.get(f"{cls.qualname}.{m}")) is not None
                      and not _relays(project, fn, casting)]
            if len({fn.name for fn in served} - set(_SERVICE_METHODS)) >= 2 and 4 * len(served) >= 3 * len(names):
                qualifying.append((cls, served))
        # Several classes implementing them: the server is the one handing each call to another
        # object's method of the same name (`self.storage.create_zone(...)`), not that object.
        delegating = [(cls, served) for cls, served in qualifying if sum(_delegates(fn) for fn in served) * 2 >= len(served)]
        for cls, served in (delegating if len(qualifying) > 1 and delegating else qualifying):
            # ... and so do its subclasses (a datastore's manager overriding `create_backup`).
            served = served + [fn for sub in project.subclasses(cls.qualname) for m in sub.methods
                               if m in names and not m.startswith("_") and project.the_applications(project.module_of_class(sub))
                               and (fn := project.functions.get(f"{sub.qualname}.{m}")) is not None]
            out.update((fn.qualname, fn) for fn in served if not _relays(project, fn, casting))
    return list(out.values())


def _delegates(fn) -> bool:
    """Does a method call a method of the same name on another object (`self.driver.m(...)`)?"""
    return any(ev.kind == "call" and ev.attr == fn.name and not (ev.name or "").startswith("super")
               and "()." in (ev.name or "().") for ev in fn.events)


def _rpc_client(project: Project, site) -> bool:
    """Is the object a `cast`/`call` is made on an RPC client: oslo.messaging's, a client a helper
    of the application gives (`rpc.get_client(target).prepare()`), an attribute named for one
    (`self._client`, `self.rpc`), or unknown; not another library's (`subprocess.call`)?"""
    name = project.canonical(site.event.name) or site.event.name or ""
    receiver = name.rpartition(".")[0]
    if not receiver or receiver.startswith("oslo_messaging.") or ".prepare()" in receiver:
        return True
    words = receiver.lower()
    return "rpc" in words or "client" in words


def _relays(project: Project, fn, casting: dict[str, set[str]]) -> bool:
    """Is a method named like a cast on the calling side: does it reach, within a few calls, a
    function that casts its own name (the client's method)? A server that casts other names (a
    conductor relaying to a compute service), or hands the work to a driver's method of the same
    name (`self.driver.create_volume(...)`), is still a server."""
    return _reaches(project, fn, {q for q, names in casting.items() if fn.name in names}, 3)


def _names_given(project: Project, fn, value, depth: int):
    """(method name, where it is written: its class, else its module, and the function it is
    written in) for what a cast's argument can be: a literal, or what the callers of the function
    pass for its parameter, a few helpers up."""
    if value and value[0] == "lit" and isinstance(value[1], str) and value[1].isidentifier():
        yield value[1], fn.class_qualname or fn.qualname.rpartition(".")[0], fn.qualname
    elif value and value[0] == "param" and depth < 3 and fn.name != MODULE_CODE:
        for caller in calls_of(project, fn):
            yield from _names_given(project, caller.function, bound_argument(fn, caller.event, value[1]), depth + 1)


def _reaches(project: Project, fn, targets: set, depth: int) -> bool:
    """Does `fn` call one of `targets`, itself or through the project's functions it calls?"""
    return any(f.qualname in targets for f in project.within_calls(fn, depth))


def _methods(project: Project, cls, serving: frozenset = frozenset()) -> list:
    """The methods an instance of `cls` has, its own and those of the project's bases (the nearest
    first), less properties, class and static methods (not called over RPC), and less `serving`:
    the names of a service's own life cycle when the service serves itself (`start`, `stop`)."""
    out, seen = [], set(serving)
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
    """(class, method names that are no endpoints of it) for the project's classes whose instances
    are passed as `endpoints` (third argument)."""
    value = ev.kwargs.get("endpoints") or (ev.args[2] if len(ev.args) > 2 else None)
    sources = ev.kwsrc.get("endpoints", ()) if "endpoints" in ev.kwargs else (ev.argsrc[2] if len(ev.argsrc) > 2 else ())
    names = [fn.events[i].name for i in sources]
    # `self._get_endpoints(plugins)`, a helper of the application's own: what it returns
    # (`return [NotificationEndpoint(self)]`).
    for helper in (callee for i in sources for callee in project.callees(fn.events[i])):
        # The calls it returns, not those that build their arguments (`[Endpoint(Config())]`).
        inner = {k for j in helper.returns for src in (*helper.events[j].argsrc, *helper.events[j].kwsrc.values())
                 for k in src}
        names += [helper.events[j].name + "()" for j in helper.returns
                  if j not in inner and helper.events[j].kind == "call" and helper.events[j].name]
    value = project.deref(value) if value and value[0] in ("name", "ref") else value  # `ENDPOINTS = [...]`
    held = _held(project, value, fn)  # `self.endpoints`, set to a list in `__init__`
    elements = held if held is not None else value[1] if value and value[0] == "seq" else [value] if value else []
    elements = [one for e in elements for one in (e[1] if e and e[0] == "each" else [e])]  # `[handlers[kind]()]`
    # `[RatingEndpoint()]`, or `[self._rating_endpoint]` typed by its assignment in `__init__`
    names += [e[1] + ("()" if e[0] == "call" else "") for e in elements if e and e[0] in ("call", "name") and e[1]]
    classes = []
    mine = {c.qualname for c in project._mro(project.classes[fn.class_qualname])} if fn.class_qualname in project.classes else set()
    below = {c.qualname for c in project.subclasses(fn.class_qualname)} if fn.class_qualname else set()
    for name in names:
        instance = project.canonical(name) or ""
        if instance.endswith("()") and instance[:-2] in mine:
            # `[self]`: the service serves itself, as whichever class of it is running (its own,
            # a subclass the application uses), less the service's life cycle.
            used = project.used_classes()
            own = project.classes[fn.class_qualname]
            serving = frozenset((*_SERVICE_METHODS, fn.name))
            classes += [(c, serving) for c in (own, *(s for s in project.subclasses(own.qualname) if s.qualname in used))]
        elif instance.endswith("()") and instance[:-2] in below:  # `[self, PoolAdmin()]` set by a subclass
            classes.append((project.classes[instance[:-2]], frozenset((*_SERVICE_METHODS, fn.name))))
        elif instance.endswith("()") and instance[:-2] in project.classes:
            classes.append((project.classes[instance[:-2]], frozenset()))
        elif instance in project.classes:
            classes.append((project.classes[instance], frozenset()))
    for param in (e for e in elements if e and e[0] == "param") if depth < 3 else ():
        # `def get_server(target, endpoints): return get_rpc_server(TRANSPORT, target, endpoints)`,
        # or `[endpoint]` of a parameter: what the helper's callers pass there.
        bound = fn.class_qualname and not any((deco_name(d[0]) or "").endswith("staticmethod") for d in fn.decorators)
        at = param[2] - (1 if bound else 0)  # a method's callers do not pass `self` (or `cls`)
        for caller in calls_of(project, fn):
            forwarded = _Forwarded(caller.event, at, param[1])
            classes += _endpoint_classes(project, caller.function, forwarded, depth + 1)
    return classes


def _held(project: Project, value, fn) -> list | None:
    """The elements the instance's attribute `value` names was set to (`self.endpoints = [self]`)
    by the class, its bases or its subclasses, together; `self` stored by one of the classes
    `fn`'s class is built on stands for the instance `fn` runs on."""
    if not value or value[0] != "name" or "()." not in str(value[1]):
        return None
    owner, _, attr = str(value[1]).rpartition("().")
    below = {c.qualname for c in project.subclasses(owner)}
    found = []
    for c, v in project.instance_stores(owner, attr):
        for e in v[1] if v[0] == "seq" else [v]:
            if e == ["name", f"{c}()"] and c not in below:  # `self` in a base: the instance `fn` runs on
                e = ["name", f"{fn.class_qualname}()"]
            found.append(e)
    return found or None


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
