"""The decorators the frameworks read: each function's decorators with who claims them, the
application's own decorators read as the framework decorators they hand the function to
(`analysis.forwarding`), and `**OPTIONS` splats spread into keywords."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .forwarding import forwarded_decorators, is_generic_wrapper, is_transparent_wrapper
from .jobs import Anchor
from .names import target
from .program import deco_name, in_tests, literal_name
from .summary import FunctionSummary, ModuleSummary
from .values import lit

if TYPE_CHECKING:
    from .project import Project


RECEIVER_DECORATORS = ("django.dispatch.receiver", "django.dispatch.dispatcher.receiver")


RECEIVER = "@receiver"  # who reads `RECEIVER_DECORATORS` (`Project.signal_receivers`), as frameworks are named


@dataclass(frozen=True)
class Decorated:
    module: ModuleSummary
    function: FunctionSummary
    value: list  # the decorator's Value
    name: str  # its canonical name (the callee for `@x(...)`)
    is_call: bool
    anchor: Anchor
    number: int  # its place among the function's decorators
    claims: frozenset[str]  # who reads it (`Project.decorator_claims`)

    @property
    def module_name(self) -> str:
        return self.module.module


def _through_partial(value: list) -> list:
    """`@task_tm` with `task_tm = functools.partial(app.task, base=Tx)` at module level: the
    decorator is `app.task` called with the partial's keywords."""
    if value[0] == "call" and value[1] == "functools.partial" and value[2] and value[2][0] and value[2][0][0] == "name":
        return ["call", value[2][0][1], [], dict(value[3])]
    return value


def _read_decorators(project: Project, mod: ModuleSummary, fn: FunctionSummary) -> list[Decorated]:
    out = []
    if is_transparent_wrapper(fn):
        return out  # the wrapper a decorator builds: its jobs are the functions it decorates
    for number, (value, line, col, end_line, end_col) in enumerate(fn.decorators):
        if value[0] in ("name", "ref"):
            # `@retry_on_disconnect` with `retry_on_disconnect = tenacity.retry(stop=...)` at
            # module level: the decorator is that call.
            assigned = project.deref(value)
            if assigned and assigned is not value and assigned[0] == "call" and assigned[1]:
                value = assigned
        value = _through_partial(value)
        name = project.canonical(deco_name(value))
        if not name:
            continue
        if value[0] == "call" and "**" in value[3]:
            value = ["call", value[1], value[2], spread(project, value[3])]
        claims = project.decorator_claims(mod, value, name)
        anchor = Anchor(mod.path, line, col, end_line, end_col)
        # A function of the application is never a framework's decorator itself, whatever its name
        # (`celerylib.task` looks like any `*.task`): it is read by what it hands the function to.
        # `@periodic_task(...)` with `periodic_task = periodic_task_manager(setting)`: what the
        # factory returns is the decorator, so the factory is read the same way.
        factory = name if project.function_for(name) else (
            name[:-2] if name.endswith("()") and project.function_for(name[:-2]) else None)
        forwarded = _forwarded(project, mod, value, factory) if factory else []
        for f_value, f_name in forwarded:
            out.append(Decorated(mod, fn, f_value, f_name, True, anchor, number, project.decorator_claims(mod, f_value, f_name)))
        if not forwarded and (claims or literal_name(value) is not None):
            out.append(Decorated(mod, fn, value, name, value[0] == "call", anchor, number, claims))
    return out


def spread(project: Project, kwargs: dict) -> dict:
    """Keywords with a `**OPTIONS` splat read where OPTIONS is a dict the program shows (a module
    constant, a helper's return); the written keywords win. An unreadable splat stays `**`."""
    out = _dict_entries(project, kwargs["**"])
    if out is None:
        return kwargs
    out.update((k, v) for k, v in kwargs.items() if k != "**")
    return out


def _dict_entries(project: Project, value: list, depth: int = 0) -> dict | None:
    """The entries of a dict the program shows, with its own splats read the same way
    (`TASK_DEFAULTS_BIND = {**TASK_DEFAULTS, "bind": True}`), later entries winning; None when
    it is no dict or a splat in it cannot be read."""
    found = project.deref(value)
    if not found or found[0] != "dict" or depth > 5:
        return None
    out: dict = {}
    for k, v in found[1]:
        key = lit(k, 0)
        if key is None:  # `**OTHER`
            inner = _dict_entries(project, v, depth + 1)
            if inner is None:
                return None
            out.update(inner)
        elif isinstance(key, str):
            out[key] = v
    return out


def _forwarded(project: Project, mod: ModuleSummary, value: list, name: str) -> list[tuple[list, str]]:
    """`@app_task(max_retries=5)`, the application's own decorator, read as each framework
    decorator it hands the function to (`analysis.forwarding`): a job's, a retry's, or both."""
    def read(callee: str) -> bool:
        return any(c != RECEIVER for c in project.decorator_claims(mod, ["name", callee], callee))

    found = project.once("forwarded decorators", dict)  # a project repeats its own decorators
    if name not in found:
        found[name] = forwarded_decorators(project, name, read)
    out = []
    for callee, kwargs, passes_on in found[name]:
        if passes_on and value[0] == "call":
            kwargs = {**kwargs, **{k: v for k, v in value[3].items() if k != "**"}}
        out.append((["call", callee, [], kwargs], callee))
    return out


def written_decorators(project: Project):
    """(module, function, [(decorator Value, Anchor), ...]) of each function of the application
    (not its tests', examples' or docs') with decorators written on it, in the program's order."""
    for mod in project.modules.values():
        if not project.the_applications(mod):
            continue
        for fn in mod.functions.values():
            if fn.decorators:
                yield mod, fn, [(value, Anchor(mod.path, line, col, end_line, end_col))
                                for value, line, col, end_line, end_col in fn.decorators]


def decorated_functions(project: Project, claimant: str) -> list[Decorated]:
    """The functions' decorators that `claimant` reads (a framework's name, or `RECEIVER`), in
    the project's order: no scan sees a decorator it does not claim (`Project.decorator_claims`)."""
    by_claimant = project.once("decorated by claimant", dict)
    found = by_claimant.get(claimant)
    if found is None:
        found = by_claimant[claimant] = [d for d in _all_decorated(project) if claimant in d.claims]
    return found


def _all_decorated(project: Project) -> list[Decorated]:
    """Every decorator some framework reads (or that names a task), in the program's order,
    written with `@` or applied by a call."""
    return project.once("decorated", lambda: [
        d for mod in project.modules.values() for fn in mod.functions.values()
        for d in (*(_read_decorators(project, mod, fn) if fn.decorators else ()), *_applied(project, mod, fn))])


def _applied(project: Project, mod: ModuleSummary, fn: FunctionSummary) -> list[Decorated]:
    """A job framework's decorator applied by a call, read as if written on the function it is
    given: `huey.task(retries=0)(exec_job)` (with the keywords of the `task(...)` call written
    there) and `app.task(send)`. Not through a name holding the decorator (`slow = huey.task(
    retries=5)` ... `slow(f)`: its options are not known here), not in tests, not a function the
    caller defines itself (a decorator factory's wrapper: its jobs are what the factory decorates),
    and not a retry decorator (`tenacity.retry(...)(fetch)(url)` retries that one call)."""
    if in_tests(mod):
        return []
    out = []
    for i, ev in enumerate(fn.events):
        if ev.kind != "call" or not ev.name or len(ev.args) != 1 or ev.kwargs or ev.args[0][0] not in ("name", "ref"):
            continue
        name = project.canonical(ev.name) or ev.name
        if name.endswith("()"):
            # D(...)(f) written in one expression: the call that made D(...) comes just before,
            # inside it.
            made = fn.events[i - 1] if i else None
            if (ev.attr is not None or made is None or made.kind != "call" or not made.name
                    or (project.canonical(made.name) or made.name) != name[:-2]
                    or (made.line, made.col) < (ev.line, ev.col)):
                continue
            name = name[:-2]
            value = ["call", name, list(made.args), dict(made.kwargs)]
        else:
            value = ["name", name]
        claims = project.decorator_claims(mod, value, name) - {"retry"}
        given = project.functions.get(target(project, mod, ev.args[0]) or "") if claims else None
        if (given is None or given.qualname.startswith(fn.qualname + ".<locals>.")
                or is_transparent_wrapper(given) or is_generic_wrapper(project, given)):
            continue
        anchor = Anchor(mod.path, ev.line, ev.col, ev.end_line, ev.end_col)
        out.append(Decorated(mod, given, value, name, value[0] == "call", anchor, 0, claims))
    return out
