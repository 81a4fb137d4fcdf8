"""Names as the running program sees them: the one resolver the frameworks, the project and
the checks use, on top of `Program.canonical`.

`Program.canonical` resolves names against the modules' package names. Applications are often
run with a folder of their own on `sys.path` (a script's folder, Django's `manage.py` folder), so
`from config import huey` in `examples/simple/tasks.py` means `simple.config.huey`, and
`from core.redis import enqueue` in `label_studio/projects/api.py` means
`label_studio.core.redis.enqueue`. When a name does not resolve into the analysed tree, it is
tried below each package around the importing module, nearest first, and kept only if it lands on
something defined there (a function, a class, a module-level assignment) — never on a module that
merely re-imports the same external name.
"""

from __future__ import annotations

from .program import Program, classes_where, modules_where
from .summary import MODULE_CODE, ModuleSummary


# Decorators and calls that wrap a function without changing which function runs.
_WRAPPERS = ("functools.partial", "functools.wraps", "staticmethod", "classmethod")
# What returns the object a dotted path names (`import_string("app.jobs.sync")`): that object.
IMPORT_STRINGS = ("django.utils.module_loading.import_string", "werkzeug.utils.import_string", "pydoc.locate",
                  "celery.utils.imports.symbol_by_name", "kombu.utils.imports.symbol_by_name")
# Signature constructors: `task.s(...)` names `task`.
_SIGNATURES = ("s", "si", "signature", "message", "message_with_options", "kicker")


def module_prefix(project: Program, name: str) -> tuple[ModuleSummary | None, list[str]]:
    """The analysed module a dotted name starts with (the longest), and the parts after it."""
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        mod = project.modules.get(".".join(parts[:i]))
        if mod is not None:
            return mod, parts[i:]
    return None, parts


def defined(project: Program, name: str) -> bool:
    """Does `name` land on something defined in the analysed tree (not merely imported there)?"""
    if name in project.functions or name in project.classes:
        return True
    mod, rest = module_prefix(project, name)
    if mod is None or not rest:
        return False
    head = rest[0].partition("(")[0]
    qual = f"{mod.module}.{head}"
    if qual in project.functions or qual in project.classes:
        return True
    return head in mod.assigns or (head in mod.symbols and head not in mod.imports)


def canonical_in(project: Program, module: ModuleSummary, name: str | None, referent: bool = False) -> str | None:
    """`project.canonical(name)` (`project.referent(name)` for a name written as a value, not
    called), falling back to the folders around `module` on sys.path."""
    # Every framework asks this of every decorator: answered once per module and name (a dict
    # per module, not (module, name) keys: a tuple per call adds up on large projects).
    caches = project.once("canonical_in referent" if referent else "canonical_in", dict)
    cache = caches.get(module.module)
    if cache is None:
        cache = caches[module.module] = {}
    found = cache.get(name, False)
    if found is False:
        found = cache[name] = _canonical_in(project, module, name, referent)
    return found


def _canonical_in(project: Program, module: ModuleSummary, name: str | None, referent: bool) -> str | None:
    canon = project.referent(name) if referent else project.canonical(name)
    if not canon or canon[0] == "@" or not name:
        return canon
    top = canon.partition(".")[0].partition("(")[0]
    if top in analysed_tops(project):
        return canon
    result = canon
    first = name.partition(".")[0].partition("(")[0]
    prefixes = _module_prefixes(project)
    for base in _ancestors(module):
        if f"{base}.{first}" not in prefixes:
            continue  # nothing of the tree lives there: a library's name stays the library's
        candidate = f"{base}.{name}"
        found = project.referent(candidate) if referent else project.canonical(candidate)
        if found and (found != candidate or defined(project, found)):
            result = found
            break
    return result


def origin(project: Program, module: ModuleSummary, name: str | None, hops: int = 0) -> str | None:
    """Where a name is defined, following imports and re-exports only: a module-level instance
    keeps its own name (`acme.signals.periodic_task`) instead of becoming its type
    (`django.dispatch.Signal()`), so a configured object can be recognised."""
    if not name or hops > 10:
        return name
    mod, rest = module_prefix(project, name)
    if mod is None:
        if hops == 0 and name.partition(".")[0] not in analysed_tops(project):
            first = name.partition(".")[0]
            for base in _ancestors(module):  # a folder on sys.path, as in canonical_in
                found = module_prefix(project, f"{base}.{name}")[0]
                if found is not None and (found.module + ".").startswith(f"{base}.{first}."):
                    return origin(project, module, f"{base}.{name}", hops + 1)
        return name
    head = rest[0]
    imported = mod.imports.get(head)
    if imported and imported != f"{mod.module}.{head}":
        return origin(project, mod, ".".join([imported, *rest[1:]]), hops + 1)
    return name


def _module_prefixes(project: Program) -> set[str]:
    """Every dotted prefix of every analysed module's name (`a`, `a.b`, `a.b.c`)."""
    def prefixes() -> set[str]:
        found = set()
        for name in project.modules:
            parts = name.split(".")
            found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        return found

    return project.once("module prefixes", prefixes)


def analysed_tops(project: Program) -> set[str]:
    return project.once("analysed tops", lambda: {m.partition(".")[0] for m in project.modules})


def _ancestors(module: ModuleSummary) -> list[str]:
    """Packages around a module, nearest first: `a.b.c` -> `a.b`, `a`."""
    parts = module.module.split(".")
    if module.path.endswith("__init__.py"):
        parts.append("__init__")
    return [".".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]


def function_by_path(project: Program, module: ModuleSummary, dotted: str) -> str | None:
    """A function named by a dotted string (`"app.tasks.send"`, `"app.tasks:send"`)."""
    found = project.function_at(dotted)
    if found:
        return found
    dotted = dotted.replace(":", ".")
    for base in _ancestors(module):
        found = project.function_at(f"{base}.{dotted}")
        if found:
            return found
    return None


def target(project: Program, module: ModuleSummary, value: list | None) -> str | None:
    """The function a job target denotes: a reference, a dotted string, a bound method,
    `functools.partial(f, ...)`, a signature such as `task.s(...)`, or the function a factory of
    the project defines and returns (`get_on_message(backend)`)."""
    if not value:
        return None
    if value[0] == "either":  # chosen in `if` arms: the last one written (`Project._expand_either` adds the others)
        return target(project, module, value[1][-1]) if value[1] else None
    if value[0] == "ref" or (value[0] == "name" and len(value) > 2):
        assigned = project.deref(value)
        found = target(project, module, assigned) if assigned is not value and assigned and assigned[0] != "ref" else None
        if found or value[0] == "ref":
            return found  # `job = partial(send, "ops")` at module level
    tag = value[0]
    if tag == "name":
        name = canonical_in(project, module, value[1], referent=True)
        found = _function(project, name)
        if found is None and name and name.endswith(".name"):  # Celery: `'task': send_invoice.name`
            found = _function(project, name[: -len(".name")])
        if found is None and name and ("[" in name or "#" in name):
            # `Thread(target=HANDLERS[kind])`: the table's first function (`Project._expand_either`
            # registers the others at the same call)
            held = project.table_functions(name)
            found = held[0].qualname if held else None
        return found
    if tag == "lit" and isinstance(value[1], str):
        return function_by_path(project, module, value[1])
    if tag == "call" and value[1]:
        callee = canonical_in(project, module, value[1]) or ""
        if callee in IMPORT_STRINGS:
            return target(project, module, value[2][0]) if value[2] else None
        if callee in _WRAPPERS or callee.rpartition(".")[2] == "partial":
            return target(project, module, value[2][0]) if value[2] else None
        base, _, attr = callee.rpartition(".")
        if attr in _SIGNATURES:
            return _function(project, base)
        made_by = project.function_for(callee)
        if made_by is not None and made_by.returns_function in project.functions:
            # `pool.submit(self.log_errors(self.cleanup), sid)`: a decorator applied in place runs
            # what it wraps (its `@wraps(func)` closure); else what runs is the closure it returns
            # (`on_message_callback=get_on_message(backend)`).
            closure = project.functions[made_by.returns_function]
            wrapped = _wrapped_by(made_by, closure, value)
            if wrapped:
                return target(project, module, wrapped)
            return _run_argument(project, module, made_by, closure, value) or made_by.returns_function
        if callee in project.classes:
            return _function(project, f"{callee}().__call__")  # `consume(BadgeAwarder())`: the instance is called
    if tag == "lambda" and len(value) > 1:
        return _run_by(project, module, value[1])
    return None


def _wrapped_by(factory, closure, call: list) -> list | None:
    """The argument a call of a decorator passes for the function its returned closure wraps
    (`@functools.wraps(func)` on the closure, `func` a parameter of the decorator)."""
    for deco, *_ in closure.decorators:
        if not (deco and deco[0] == "call" and deco[1] in ("functools.wraps", "functools.update_wrapper") and deco[2]):
            continue
        arg = deco[2][0]
        if not arg or arg[0] not in ("closure", "param"):
            return None
        params = _passed_params(factory)
        if arg[1] not in params:
            return None
        index = params.index(arg[1])
        return call[2][index] if index < len(call[2]) else call[3].get(arg[1])
    return None


def _passed_params(factory) -> list[str]:
    """The parameters a call of `factory` passes (a method's without `self` or `cls`)."""
    return factory.params[1:] if factory.class_qualname and factory.params[:1] in (["self"], ["cls"]) else factory.params


def _run_argument(project: Program, module: ModuleSummary, factory, closure, call: list) -> str | None:
    """The function a call of a job factory of the application's passes for the callable its
    returned closure runs: `tracked(app, "rates", sync_rates)` whose `wrapper()` calls `func(app.db)`,
    or a provider, `tracked(app, import_func=_import_rates)` whose `wrapper()` runs what
    `import_func()` gives (`def _import_rates(): from .rates import sync; return sync`). The
    closure is the generic part of every job the factory makes (timing, logging); what it runs is
    the job. Only when one function is run so (a callable that only supplies a value, a lambda
    computing metadata, a guard tested, is not the work), and not a closure that loops until
    stopped (a loop runner is the job itself)."""
    if closure.forever:
        return None
    params = _passed_params(factory)
    found: list[str] = []
    for index, param in enumerate(params):
        if not any(ev.kind == "call" and ev.name is None and ev.attr == param and not ev.in_test
                   for ev in closure.events):
            continue
        arg = call[2][index] if index < len(call[2]) else call[3].get(param)
        if not arg or arg[0] not in ("name", "ref"):
            continue
        given = project.functions.get(target(project, module, arg) or "")
        if given is None:
            continue
        made = [f.qualname for q in given.returns_one_of if (f := project.function_for(project.canonical(q) or q))]
        if not given.params and len(made) == 1:
            found.append(made[0])  # a provider: the function it returns is run
        elif any(ev.kind == "call" for ev in given.events):
            found.append(given.qualname)  # a function that does something (not one returning a constant)
    return found[0] if len(set(found)) == 1 else None


def _run_by(project: Program, module: ModuleSummary, body: list, depth: int = 0) -> str | None:
    """The function of the application a lambda's body runs: the one it calls (`lambda _:
    self._read()`), the one whose call it hands on (`lambda: asyncio.ensure_future(
    self._reconnect())`), the one a context runs (`lambda: ctx.run(self._loop)`), or the one it
    calls for the value of the one-entry dict it builds (`lambda: {"offline": mark_offline()}`:
    a result in the shape its runner wants); not one it only names (`lambda:
    self.listeners.remove(self.on_event)`)."""
    if body and body[0] == "dict" and len(body[1]) == 1 and depth == 0:
        body = body[1][0][1]
    if not body or body[0] != "call" or depth > 2:
        return None
    callee = canonical_in(project, module, body[1]) or ""
    found = _function(project, callee)
    if found is not None or not body[2]:
        return found
    first = body[2][0]
    if first[0] == "call":
        return _run_by(project, module, first, depth + 1)
    return target(project, module, first) if callee.startswith("contextvars.") and callee.endswith(".run") else None


def _function(project: Program, name: str | None) -> str | None:
    fn = project.function_for(name)
    if fn is None and name:
        return _subclass_method(project, name)
    return fn.qualname if fn is not None and fn.name != MODULE_CODE else None


def _subclass_method(project: Program, name: str) -> str | None:
    """`self._rebuild` in a mixin whose method is defined by the one class that uses it:
    `ProjectMixin._rebuild` is `Project._rebuild` when exactly one subclass defines it."""
    owner, _, method = name.removesuffix("()").rpartition(".")
    owner = owner.removesuffix("()")
    if owner not in project.classes:
        return None
    def wanted(cls) -> bool:
        return method in cls.methods and (owner in project.class_bases(cls) or owner in dynamic_bases(project, cls))

    found = {f"{cls.qualname}.{method}" for cls in classes_where(project, wanted)}
    return found.pop() if len(found) == 1 else None


def dynamic_bases(project: Program, cls) -> set[str]:
    """Bases chosen at run time by a dotted string: `Mixin = load_func(settings.PROJECT_MIXIN)`
    with `PROJECT_MIXIN = "projects.mixins.ProjectMixin"` in the settings, then
    `class Project(Mixin, Model)`. The string is followed when it names a class of the project."""
    module = project.module_of_class(cls)
    out: set[str] = set()
    for base in cls.bases:
        if not base or not base.endswith("()"):
            continue
        for value, _line, _col in module.assigns.values():
            if value[0] != "call" or f"{value[1]}()" != base or len(value[2]) != 1 or value[3]:
                continue
            path = _dotted_string(project, value[2][0])
            name = canonical_in(project, module, path) if path else None
            if name in project.classes:
                out.add(name)
    return out


def _dotted_string(project: Program, value) -> str | None:
    """A string Value, directly, through a module variable, or as a Django setting
    (`settings.NAME` assigned one string literal in the project's settings modules)."""
    value = project.deref(value)
    if value and value[0] == "lit" and isinstance(value[1], str):
        return value[1]
    if value and value[0] == "name" and (value[1] or "").startswith("django.conf.settings."):
        setting = value[1].rpartition(".")[2]

        def assigns_string(m: ModuleSummary) -> bool:
            a = m.assigns.get(setting)
            return bool(a and a[0][0] == "lit" and isinstance(a[0][1], str))

        found = {m.assigns[setting][0][1] for m in modules_where(project, assigns_string)}
        return found.pop() if len(found) == 1 else None
    return None



def forwarded(site, value: list | None) -> tuple | None:
    """(helper, parameter index, parameter name) when a job target is a parameter of the
    function making the call: `def start_job(func, *a): queue.enqueue(func, *a)`; with a fourth
    item, the dotted path a parameter completes (`import_string(f"app.jobs.{job_name}")`), whose
    callers pass the name."""
    if not value or site.function.name == "<module>":
        return None
    if value[0] == "param":
        return (site.function.qualname, value[2], value[1])
    path = value[2][0] if value[0] == "call" and value[2] and value[1] in IMPORT_STRINGS else None
    if path and path[0] == "fstr":
        params = [p for p in path[1] if p and p[0] == "param"]
        if len(params) == 1 and all(p[0] in ("lit", "param") for p in path[1]):
            return (site.function.qualname, params[0][2], params[0][1], path)
    return None


def completed_path(template: list, given: list | None) -> list | None:
    """The dotted path `template` (`f"app.jobs.{job_name}"`) names once its parameter is `given`:
    a string when the caller wrote one, the template again around the caller's own parameter."""
    if not given or given[0] not in ("lit", "param") or (given[0] == "lit" and not isinstance(given[1], str)):
        return None
    parts = [given if p[0] == "param" else p for p in template[1]]
    if given[0] == "param":
        return ["fstr", parts]
    return ["lit", "".join(p[1] for p in parts)]


def short(name: str) -> str:
    """A name as a reader says it: from the class on (`Invoice.objects.filter().update`,
    `EmailMessage().send`), a library's top-level calls in full (`stripe.Charge.create`), else the
    module and the function (`notify.tell_customer`)."""
    parts = name.split(".")
    for i, part in enumerate(parts):
        if part[:1].isupper():
            return ".".join(parts[i - 1 if i == 1 else i :])
    return ".".join(parts[-2:]) if len(parts) > 2 else name
