"""Airflow: the Python code a worker runs for a task.

Entry points (by resolved name, `airflow.sdk.*`, `airflow.decorators.*`, `airflow.models.*`,
`airflow.providers.*`):
- TaskFlow tasks: `@task`, `@task.virtualenv`, `@task.external_python`, `@task.branch`,
  `@task.short_circuit`, `@task.bash`, `@task.docker`, ... (kind "task"), `@task.sensor` (kind
  "sensor"), `@setup` / `@teardown`; `@task.run_if` / `@task.skip_if` only modify a task.
- `@asset` / `@asset.multi` functions (kind "asset"): Airflow runs them as a one-task DAG.
- The callable an operator runs: `PythonOperator(python_callable=f)` and every other operator or
  sensor given a `python_callable` (`BranchPythonOperator`, `PythonVirtualenvOperator`,
  `PythonSensor`, ...). Operators without Python of ours (`BashOperator`) are not entry points;
  neither are lambdas (nothing to check or document).
- Custom operators: `execute` of a `BaseOperator` subclass (a sensor's `poke` when it has no
  `execute`), documented on the class (kind "operator" / "sensor").
- `@dag` factories (kind "dag"): structure, not work — they run when the DAG file is parsed.
  `@task_group` functions are not listed: they only arrange tasks.

Retries, as Airflow resolves them for each task instance: the task's own arguments (decorator,
operator constructor, `.override(...)` / `.partial(...)`), else the `default_args` of the
enclosing `TaskGroup`s and DAG, else `[core] default_task_retries` (0). A task instance belongs
to the DAG where it is created — where a TaskFlow function is called, where an operator is
constructed: inside `with DAG(...)` (or `with dag:`), inside a `@dag` function, given `dag=dag`,
or inside a helper or task group called there. An operator assigned to a module-level variable
can have its settings assigned after construction (`op.retries = 3`, `op.retries = 0`): those win
over its arguments and the DAG's `default_args` (assignments in a function, or to the tasks of a
loop such as `for t in dag.tasks: t.retries = 2`, are not read: the summary does not keep them).
A task instantiated in several DAGs gets the policy with the most retries. `retry_delay` defaults
to 300 s; `retry_exponential_backoff` to False; `on_failure_callback` (task or DAG) and
`email_on_failure` are who sees exhaustion.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis import names
from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.program import any_module, classes_where, deco_name, per_module
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from ..analysis.summary import (
    MODULE_CODE,
    Event,
    FunctionSummary,
    ModuleSummary,
    Region,
)
from ..analysis.values import call_args, call_kwargs, call_name, dict_items, lit, render
from .base import describe, int_or_none, job_from_function, policy
from .durations import seconds

DEFAULT_RETRIES = 0  # [core] default_task_retries
DEFAULT_RETRY_DELAY_S = 300.0
RETRY_KEYS = ("retries", "retry_delay", "retry_exponential_backoff", "max_retry_delay", "retry_policy")
# Attributes of a task that create a task instance in the current DAG (`f.override(...)(...)`).
_INSTANTIATE = ("override", "partial", "expand", "expand_kwargs")
# Decorators under `task` that modify a task instead of making one.
_MODIFIERS = ("run_if", "skip_if", "override", "partial", "expand", "expand_kwargs")
_MAX_DEPTH = 4
_MAX_CONTEXTS = 16


def _is_airflow(name: str | None) -> bool:
    return bool(name) and name.startswith("airflow.")


def _last(name: str) -> str:
    return name.removesuffix("()").rpartition(".")[2]


def task_decorator_kind(name: str | None) -> str | None:
    """"task" or "sensor" for a TaskFlow decorator (`airflow.sdk.task.virtualenv`), else None."""
    if not _is_airflow(name):
        return None
    parts = name.split(".")
    if parts[-1] in ("setup", "teardown"):
        return "task"
    if "task" in parts:
        rest = parts[len(parts) - parts[::-1].index("task"):]
        if not rest:
            return "task"
        if len(rest) == 1 and rest[0] not in _MODIFIERS:
            return "sensor" if rest[0] == "sensor" else "task"
        return None
    # Direct imports of the decorator factories: `airflow.decorators.python.python_task`.
    if "decorators" in parts and parts[-1].endswith("_task"):
        return "sensor" if parts[-1] == "sensor_task" else "task"
    return None


def is_dag_decorator(name: str | None) -> bool:
    return _is_airflow(name) and name.rpartition(".")[2] == "dag"


def is_asset_decorator(name: str | None) -> bool:
    return _is_airflow(name) and (name.rpartition(".")[2] == "asset" or name.endswith(".asset.multi"))


def is_task_group_decorator(name: str | None) -> bool:
    return _is_airflow(name) and name.rpartition(".")[2] == "task_group"


@dataclass(frozen=True)
class _Layer:
    """One scope whose `default_args` a task instance inherits: a DAG or a TaskGroup."""

    defaults: tuple  # ((key, Value), ...)
    anchor: Anchor
    label: str  # "DAG 'tutorial'"
    failure_callback: bool = False  # the DAG's own on_failure_callback


class Airflow:
    name = "airflow"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return bool(task_decorator_kind(name) or is_asset_decorator(name) or is_dag_decorator(name)
                    or is_task_group_decorator(name))

    def find_jobs(self, project: Project) -> list[JobSite]:
        if not any_module(project, _imports_airflow):
            return []  # the call-site index below costs a pass over every call: only for Airflow projects
        return _Analysis(project).jobs()

    def find_registrations(self, project: Project) -> list[Registration]:
        return []


def _imports_airflow(mod: ModuleSummary) -> bool:
    return any(v.startswith("airflow") for v in mod.imports.values())


class _Analysis:
    def __init__(self, project: Project) -> None:
        self.p = project
        # canonical target -> [(function, event index, how: "" or an _INSTANTIATE attribute)]
        self.calls: dict[str, list[tuple[str, int, str]]] = {}
        self.callable_events: list[tuple[str, int]] = []
        # (function, depth) -> contexts: what a walk finds depends on how far it may still go, so
        # a walk cut off deep down is never taken for the answer nearer the top.
        self._fn_contexts: dict[tuple[str, int], list[tuple]] = {}
        self._index()

    # ---- indices ---------------------------------------------------------------------------

    def _index(self) -> None:
        p = self.p
        tops = names.analysed_tops(p)

        def contribution(mod: ModuleSummary) -> list:
            """[(target, function, event index, how, gives a python_callable)] of a module's calls."""
            out = []
            # Only calls that can name an operator: Airflow's own, or the tree's (a subclass, a
            # factory), also when imported as from a folder on sys.path.
            relevant = tops | {"airflow"} | {n.partition(".")[0] for n in mod.imported}
            for fn in mod.functions.values():
                for i, ev in enumerate(fn.events):
                    if ev.kind != "call" or not ev.name or ev.name.partition(".")[0].partition("(")[0] not in relevant:
                        continue
                    callable_ = "python_callable" in ev.kwargs
                    canon = names.canonical_in(p, mod, ev.name)
                    if canon or callable_:
                        out.append((canon, fn.qualname, i, "", callable_))
                    prefix, _, attr = ev.name.rpartition(".")
                    if attr in _INSTANTIATE and prefix:
                        base = names.canonical_in(p, mod, prefix)
                        if base and base != canon:
                            out.append((base, fn.qualname, i, attr, False))
            return out

        for _, calls in per_module(p, contribution):
            for target, qualname, i, how, callable_ in calls:
                if callable_:
                    self.callable_events.append((qualname, i))
                if target:
                    self.calls.setdefault(target, []).append((qualname, i, how))

    def module(self, fn: FunctionSummary) -> ModuleSummary:
        return self.p.function_module[fn.qualname]

    def canonical(self, fn: FunctionSummary, name: str | None) -> str | None:
        return names.canonical_in(self.p, self.module(fn), name)

    # ---- entry points ------------------------------------------------------------------------

    def jobs(self) -> list[JobSite]:
        p = self.p
        sites: dict[str, JobSite] = {}
        for d in decorated_functions(p, "airflow"):
            fn = d.function
            if fn.qualname in sites:
                continue
            kind = task_decorator_kind(d.name) or ("asset" if is_asset_decorator(d.name) else None)
            if kind is not None:
                own = dict(d.value[3]) if d.is_call else {}
                site = job_from_function(p, fn, "airflow", kind, triggers={"schedule"})
                site.retry = self._policy(own, d.anchor, self._instantiations(fn.qualname, taskflow=True), site.anchor)
                site.settings = {k: v for k, v in own.items() if k in RETRY_KEYS}
                sites[fn.qualname] = site
            elif is_dag_decorator(d.name):
                sites[fn.qualname] = job_from_function(p, fn, "airflow", "dag", triggers={"schedule"})
        self._callables(sites)
        self._operators(sites)
        return list(sites.values())

    def _callables(self, sites: dict[str, JobSite]) -> None:
        """Functions given to operators as `python_callable`."""
        found: dict[str, tuple[str, list]] = {}
        for qualname, i in self.callable_events:
            fn = self.p.functions[qualname]
            ev = fn.events[i]
            callee = self.canonical(fn, ev.name) or ""
            if callee.endswith(".partial"):
                callee = callee[: -len(".partial")]
            kind = self._operator_kind(callee)
            if kind is None:
                continue
            target = names.target(self.p, self.module(fn), ev.kwargs["python_callable"])
            if not target or target in sites:
                continue
            anchor = _event_anchor(self.module(fn), ev)
            entry = found.setdefault(target, ("sensor" if kind == "sensor" else "task", []))
            entry[1].append((dict(ev.kwargs), anchor, self._event_contexts(fn, ev, 0),
                             _assigned_after(self.module(fn), fn, ev)))
        for target, (kind, insts) in found.items():
            fn = self.p.functions[target]
            site = job_from_function(self.p, fn, "airflow", kind, triggers={"schedule"})
            site.retry = self._policy({}, site.anchor, insts, site.anchor)
            sites[target] = site

    def _operators(self, sites: dict[str, JobSite]) -> None:
        """Custom operators: the worker calls `execute` (a sensor's `poke` through it)."""
        p = self.p
        for cls in classes_where(p, lambda cls: self._operator_kind(cls.qualname) is not None):
            kind = self._operator_kind(cls.qualname)
            method = "execute" if "execute" in cls.methods else ("poke" if "poke" in cls.methods else None)
            if method is None:
                continue  # configures an operator whose code is Airflow's (a BashOperator subclass)
            function = f"{cls.qualname}.{method}"
            if function in sites:
                continue
            anchor = p.class_anchor(cls)
            site = JobSite(
                function=function, framework="airflow", kind=kind, path=anchor.path, anchor=anchor,
                display=cls.qualname, doc_owner=cls.qualname, triggers={"schedule"},
            )
            site.retry = self._policy({}, anchor, self._instantiations(cls.qualname, taskflow=False), anchor)
            sites[function] = site

    def _operator_kind(self, name: str | None) -> str | None:
        """"operator" or "sensor" for an Airflow operator class (ours or Airflow's), else None."""
        if not name:
            return None
        name = name.removesuffix("()")
        cls = self.p.classes.get(name)
        candidates = [b.removesuffix("()") for b in self.p.class_bases(cls)] if cls is not None else [name]
        kind = None
        for base in candidates:
            if not _is_airflow(base):
                continue
            last = _last(base)
            if last.endswith("Sensor") or last == "BaseSensorOperator":
                return "sensor"
            if last.endswith("Operator"):
                kind = "operator"
        return kind

    # ---- where task instances are created ------------------------------------------------------

    def _instantiations(self, target: str, taskflow: bool) -> list:
        """[(task arguments given there, their anchor, [DAG contexts])] for each place `target`
        becomes a task instance. A TaskFlow call's arguments are the function's, not the task's:
        only `.override(...)` sets task arguments there."""
        out = []
        for qualname, i, how in self.calls.get(target, ()):
            fn = self.p.functions[qualname]
            ev = fn.events[i]
            if taskflow:
                args = dict(ev.kwargs) if how == "override" else {}
            else:
                args = dict(ev.kwargs) if how in ("", "partial") else {}
            after = _assigned_after(self.module(fn), fn, ev) if not taskflow and how == "" else ()
            out.append((args, _event_anchor(self.module(fn), ev), self._event_contexts(fn, ev, 0), after))
        return out

    def _event_contexts(self, fn: FunctionSummary, ev: Event, depth: int) -> list[tuple]:
        """The DAG contexts (tuples of _Layer, outermost first) a call in `fn` runs in."""
        explicit = self._dag_value(fn, ev.kwargs.get("dag"))
        if explicit is not None:
            return [(explicit,)]
        regions = {r.id: r for r in fn.regions}
        stack: list[_Layer] = []
        in_dag = False
        for rid in ev.regions:
            region = regions.get(rid)
            layer = self._region_layer(fn, region) if region is not None else None
            if layer is None:
                continue
            kind, layer = layer
            if kind == "dag":
                in_dag, stack = True, [layer]
            else:
                stack.append(layer)
        if in_dag:
            return [tuple(stack)]
        outer = self._function_contexts(fn, depth)
        if not outer:
            return [tuple(stack)] if stack else []
        return [ctx + tuple(stack) for ctx in outer]

    def _function_contexts(self, fn: FunctionSummary, depth: int) -> list[tuple]:
        """The DAG contexts code in `fn` runs in: its `@dag`, or wherever it is called from."""
        if fn.name == MODULE_CODE or depth > _MAX_DEPTH:
            return []  # (also ends a cycle of calls: every step goes one deeper)
        key = (fn.qualname, depth)
        cached = self._fn_contexts.get(key)
        if cached is not None:
            return cached
        group: _Layer | None = None
        for deco in fn.decorators:
            name = self.canonical(fn, deco_name(deco[0]))
            kwargs = call_kwargs(deco[0])
            anchor = Anchor(self.module(fn).path, deco[1], deco[2], deco[3], deco[4])
            if is_dag_decorator(name):
                label = _dag_label(kwargs, call_args(deco[0])) or f"@dag {fn.name}"
                result = [(self._layer(kwargs, anchor, label, dag=True),)]
                self._fn_contexts[key] = result
                return result
            if is_task_group_decorator(name):
                group = self._layer(kwargs, anchor, f"@task_group {fn.name}")
        out: list[tuple] = []
        for caller_name, i, how in self.calls.get(fn.qualname, ()):
            if how not in ("", "expand", "partial", "expand_kwargs") or caller_name == fn.qualname:
                continue
            caller = self.p.functions[caller_name]
            for ctx in self._event_contexts(caller, caller.events[i], depth + 1):
                ctx = ctx + ((group,) if group is not None else ())
                if ctx not in out:
                    out.append(ctx)
                if len(out) >= _MAX_CONTEXTS:
                    break
        if not out and group is not None:
            out = [(group,)]
        self._fn_contexts[key] = out
        return out

    def _region_layer(self, fn: FunctionSummary, region: Region) -> tuple[str, _Layer] | None:
        name = self.canonical(fn, region.name) or ""
        if not _is_airflow(name) or _last(name) not in ("DAG", "TaskGroup"):
            return None
        kwargs, args = region.kwargs, region.args
        if not kwargs and not args and region.ref:
            value = self.p.deref(["ref", region.ref])  # `with dag:` on `dag = DAG(...)`
            kwargs, args = call_kwargs(value), call_args(value)
        anchor = Anchor(self.module(fn).path, region.line, region.col, region.end_line, region.end_col)
        if _last(name) == "DAG":
            return "dag", self._layer(kwargs, anchor, _dag_label(kwargs, args) or "DAG", dag=True)
        group_id = lit(kwargs.get("group_id") or (args[0] if args else None), None)
        return "group", self._layer(kwargs, anchor, f"TaskGroup {group_id!r}" if group_id else "TaskGroup")

    def _dag_value(self, fn: FunctionSummary, value: list | None) -> _Layer | None:
        """`dag=dag` where `dag = DAG(...)` at module level."""
        if not value:
            return None
        where = self._written_at(value)
        value = self.p.deref(value)
        name = self.canonical(fn, call_name(value)) or ""
        if where is None or not _is_airflow(name) or _last(name) != "DAG":
            return None
        kwargs, args = call_kwargs(value), call_args(value)
        return self._layer(kwargs, where, _dag_label(kwargs, args) or "DAG", dag=True)

    def _layer(self, kwargs: dict, anchor: Anchor, label: str, dag: bool = False) -> _Layer:
        raw = kwargs.get("default_args")
        defaults = self._dict(raw)
        where = self._written_at(raw)
        return _Layer(
            defaults=tuple(defaults.items()),
            anchor=where or anchor,
            label=label,
            failure_callback=dag and "on_failure_callback" in kwargs,
        )

    def _dict(self, value: list | None, depth: int = 0) -> dict:
        """A dict setting (`{"retries": 2}`, `dict(retries=2)`, a module-level variable, `{**base, ...}`)."""
        value = self.p.deref(value)
        if not value or depth > 4:
            return {}
        if value[0] == "call" and (value[1] or "").rpartition(".")[2] == "dict":
            out = {}
            for arg in value[2]:
                out.update(self._dict(arg, depth + 1))
            out.update({k: v for k, v in value[3].items() if k != "**"})
            return out
        out = {}
        for k, v in dict_items(value):
            key = lit(k, None)
            if key is None and k == ["lit", None]:
                out.update(self._dict(v, depth + 1))  # `**base`
            elif isinstance(key, str):
                out[key] = v
        return out

    def _written_at(self, value: list | None) -> Anchor | None:
        """Where a module-level settings variable is assigned (`default_args = {...}`)."""
        if not value:
            return None
        dotted = value[1] if value[0] == "ref" else (value[2] if value[0] == "name" and len(value) > 2 else None)
        if not dotted:
            return None
        module, _, var = dotted.rpartition(".")
        mod = self.p.modules.get(module)
        if mod is None:
            return None
        if var not in mod.assigns:
            return None
        _, line, col = mod.assigns[var]
        return Anchor(mod.path, line, col, line, col + len(var))

    # ---- the policy --------------------------------------------------------------------------

    def _policy(self, own: dict, own_anchor: Anchor, insts: list, job_anchor: Anchor) -> RetryPolicy:
        candidates = []
        for args, anchor, contexts, after in insts or [({}, own_anchor, [()], ())]:
            for ctx in contexts or [()]:
                candidates.append(self._effective(ctx, own, own_anchor, args, anchor, job_anchor, after))
        return max(candidates, key=lambda pol: pol.retries.most_key())

    def _effective(self, ctx: tuple, own: dict, own_anchor: Anchor, args: dict, args_anchor: Anchor,
                   job_anchor: Anchor, after: tuple = ()) -> RetryPolicy:
        merged: dict = {}
        source: dict[str, tuple] = {}  # key -> (anchor, the settings it is written among, label)
        failure = None
        for layer in ctx:
            layer_dict = dict(layer.defaults)
            for k, v in layer.defaults:
                merged[k] = v
                source[k] = (layer.anchor, layer_dict, f"default_args of {layer.label}")
            if layer.failure_callback:
                failure = f"on_failure_callback of {layer.label}"
        for settings, anchor in ((own, own_anchor), (args, args_anchor), *after):
            for k, v in settings.items():
                merged[k] = v
                source[k] = (anchor, settings, "")
        retries_value = self.p.deref(merged.get("retries"))
        retries = int_or_none(retries_value, None) if retries_value is not None else None
        if retries is not None and retries < 0:
            retries = None
        delay = seconds(self.p.deref(merged.get("retry_delay")))
        exponential = bool(lit(self.p.deref(merged.get("retry_exponential_backoff")), False))
        if "on_failure_callback" in merged:
            failure = "on_failure_callback"
        elif merged.get("email") and lit(merged.get("email_on_failure"), True) is not False:
            failure = "email_on_failure"
        if retries is None:
            written = "retries" in merged
            return policy(
                f"retries={render(merged['retries'])} (not a constant)" if written
                else f"no retries (Airflow's default_task_retries={DEFAULT_RETRIES})",
                source["retries"][0] if written else job_anchor,
                retries=RetryLimit.known(DEFAULT_RETRIES), on=None, from_default=not written, backoff="none",
                delay=None, failure_handler=failure,
            )
        anchor, settings, label = source["retries"]
        text = describe(settings, RETRY_KEYS)
        return policy(
            f"{label}: {text}" if label else text,
            anchor,
            retries=RetryLimit.known(retries),
            on=None,  # any exception fails the try, and a failed try is retried
            backoff="exponential" if exponential else "constant",
            delay=delay if delay is not None else DEFAULT_RETRY_DELAY_S,
            failure_handler=failure,
        )


def _assigned_after(mod: ModuleSummary, fn: FunctionSummary, ev: Event) -> tuple:
    """({setting: Value}, anchor) pairs for `op.retries = 3` written at module level after
    `op = Operator(...)` (the constructor call `ev`): Airflow reads the attribute when the task
    runs, so it wins over the constructor's arguments and `default_args`."""
    if fn.name != MODULE_CODE:
        return ()
    var = next((v for v, (value, line, *_) in mod.assigns.items()
                if "." not in v and line == ev.line and value and value[0] == "call" and value[1] == ev.name), None)
    out = []
    for key in RETRY_KEYS + ("on_failure_callback",):
        assigned = mod.assigns.get(f"{var}.{key}") if var else None
        if assigned is not None and assigned[1] > ev.line:
            value, line, col = assigned[:3]
            out.append(({key: value}, Anchor(mod.path, line, col, line, col + len(var) + 1 + len(key))))
    return tuple(out)


def _dag_label(kwargs: dict, args: list) -> str | None:
    dag_id = lit(kwargs.get("dag_id") or (args[0] if args else None), None)
    return f"DAG {dag_id!r}" if isinstance(dag_id, str) else None


def _event_anchor(mod: ModuleSummary, ev: Event) -> Anchor:
    return Anchor(mod.path, ev.line, ev.col, ev.end_line, ev.end_col)


FRAMEWORK = Airflow()
