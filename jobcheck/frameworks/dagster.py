"""Dagster: the functions its executor and daemons call.

Entry points (resolved names under `dagster.`, including `import dagster as dg`):
- `@op` (kind "op"); `@asset`, `@multi_asset`, `@observable_source_asset` (kind "asset");
  `@asset_check`, `@multi_asset_check` (kind "asset_check"): executed as steps of a run.
- `@schedule` (kind "schedule") and `@sensor`, `@asset_sensor`, `@multi_asset_sensor`,
  `@run_status_sensor`, `@run_failure_sensor` (kind "sensor"): evaluated by the daemon on every
  tick; also `ScheduleDefinition(execution_fn=f)` and `SensorDefinition(evaluation_fn=f)`.
- `@job`, `@graph`, `@graph_asset`, `@graph_multi_asset` (kinds "job" and "graph"): structure —
  their bodies only wire ops together when the definitions load.

Retries: none unless a `RetryPolicy` applies. Precedence, as Dagster applies it: the invocation's
`op.with_retry_policy(...)` inside a job, then the op's (or asset's) own `retry_policy=`, then the
job's `op_retry_policy=` (for every op the job, or a graph in it, invokes), and
`define_asset_job(..., op_retry_policy=...)` for the assets its `selection` names. `RetryPolicy()`
means `max_retries=1`, `delay=None`, no backoff; `Backoff.EXPONENTIAL` doubles the delay.
`raise RetryRequested(max_retries=N)` in the body is an explicit retry.
"""

from __future__ import annotations

from ..analysis import names
from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.program import calls_named
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from ..analysis.summary import FunctionSummary
from ..analysis.values import call_args, call_kwargs, call_name, render
from .base import describe, job_from_function, policy, retry_limit
from .durations import seconds

KINDS = {
    "op": "op", "solid": "op",
    "asset": "asset", "multi_asset": "asset", "observable_source_asset": "asset",
    "multi_observable_source_asset": "asset",
    "asset_check": "asset_check", "multi_asset_check": "asset_check",
    "schedule": "schedule",
    "sensor": "sensor", "asset_sensor": "sensor", "multi_asset_sensor": "sensor", "run_status_sensor": "sensor",
    "run_failure_sensor": "sensor", "freshness_policy_sensor": "sensor",
    "job": "job", "pipeline": "job", "graph": "graph", "graph_asset": "graph", "graph_multi_asset": "graph",
}
# Integration decorators that make an asset of the decorated function.
INTEGRATION_ASSETS = ("dagster_dbt.dbt_assets", "dagster_sling.sling_assets", "dagster_dlt.dlt_assets",
                      "dagster_embedded_elt.sling.sling_assets", "dagster_embedded_elt.dlt.dlt_assets")
RETRIED_KINDS = ("op", "asset", "asset_check")
# Calls on an op inside a job body that still invoke it: `op.alias("x")()`, `op.with_hooks(...)()`.
_INVOCATION_WRAPPERS = ("alias", "with_hooks", "with_retry_policy", "tag", "configured")
_FUNCTION_DEFINITIONS = {
    "ScheduleDefinition": ("execution_fn", "schedule"),
    "SensorDefinition": ("evaluation_fn", "sensor"),
}


def kind_of(name: str | None) -> str | None:
    if not name:
        return None
    if name in INTEGRATION_ASSETS:
        return "asset"
    if not name.startswith("dagster."):
        return None
    return KINDS.get(name.rpartition(".")[2])


def retry_from(value: list | None, anchor: Anchor, project: Project, where: str = "") -> RetryPolicy | None:
    """`RetryPolicy(max_retries=3, delay=1, backoff=Backoff.EXPONENTIAL)` as a policy."""
    value = project.deref(value)
    name = call_name(value) or ""
    if not name.startswith("dagster") or name.rpartition(".")[2] != "RetryPolicy":
        return None
    kwargs, args = call_kwargs(value), call_args(value)
    max_value = project.deref(kwargs.get("max_retries") or (args[0] if args else None))
    limit = retry_limit(max_value, RetryLimit.known(1), unlimited=())
    delay = seconds(project.deref(kwargs.get("delay") or (args[1] if len(args) > 1 else None)))
    backoff_value = kwargs.get("backoff") or (args[2] if len(args) > 2 else None)
    backoff_name = (backoff_value[1] or "") if backoff_value and backoff_value[0] == "name" else ""
    if backoff_name.endswith("EXPONENTIAL"):
        backoff = "exponential"
    elif backoff_name.endswith("LINEAR"):
        backoff = "linear"
    else:
        backoff = "constant" if delay else "none"
    setting = f"{where}{render(value)}"
    return policy(setting, anchor, retries=limit, on=None, backoff=backoff, delay=delay)


class Dagster:
    name = "dagster"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return kind_of(name) is not None

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        own: dict[str, RetryPolicy] = {}  # the policies ops and assets give themselves
        for d in decorated_functions(project, self.name):
            kind = kind_of(d.name)
            if kind is None or d.function.qualname in sites:
                continue
            kwargs = d.value[3] if d.is_call else {}
            trigger = "schedule" if kind in ("schedule", "sensor") else "enqueue"
            site = job_from_function(project, d.function, self.name, kind, triggers={trigger})
            if kind in RETRIED_KINDS:
                explicit = retry_from(kwargs.get("retry_policy"), d.anchor, project, "retry_policy=")
                site.retry = explicit or _retry_requested(project, d.function) or policy(
                    "no retry_policy (Dagster's default: no retries)", site.anchor, retries=RetryLimit.known(0), on=None,
                    from_default=True, backoff="none",
                )
                site.settings = {k: v for k, v in kwargs.items() if k == "retry_policy"}
                if explicit is not None:
                    own[site.function] = explicit
            sites[site.function] = site
        self._definitions(project, sites)
        self._job_policies(project, sites, own)
        return list(sites.values())

    def _definitions(self, project: Project, sites: dict[str, JobSite]) -> None:
        """`ScheduleDefinition(execution_fn=f)`, `SensorDefinition(evaluation_fn=f)`."""
        for call in calls_named(project, tuple(_FUNCTION_DEFINITIONS), _reads_dagster_call):
            name = call.name or ""
            last = name.rpartition(".")[2]
            if not name.startswith("dagster") or last not in _FUNCTION_DEFINITIONS:
                continue  # calling a definition instance is not defining one
            key, kind = _FUNCTION_DEFINITIONS[last]
            target = names.target(project, call.module, call.event.kwargs.get(key))
            if target and target not in sites:
                fn = project.functions[target]
                sites[target] = job_from_function(project, fn, self.name, kind, triggers={"schedule"})

    def _job_policies(self, project: Project, sites: dict[str, JobSite], own: dict[str, RetryPolicy]) -> None:
        """Policies given where ops are invoked: a job's `op_retry_policy`, `op.with_retry_policy(...)`."""
        for d in decorated_functions(project, self.name):
            if kind_of(d.name) != "job":
                continue
            job_policy = retry_from(call_kwargs(d.value).get("op_retry_policy"), d.anchor, project,
                                    f"op_retry_policy of job {d.function.name}: ")
            for op, invocation_policy in self._invoked_ops(project, d.function, sites, set()):
                chosen = invocation_policy or own.get(op) or job_policy
                if chosen is not None and op in sites:
                    _apply(sites[op], chosen)
        for call in calls_named(project, ("define_asset_job",), _reads_dagster_call):
            job_policy = retry_from(call.event.kwargs.get("op_retry_policy"), call.anchor, project,
                                    "op_retry_policy of define_asset_job: ")
            if job_policy is None:
                continue
            args = call.event.args
            selection = project.deref(call.event.kwargs.get("selection") or (args[1] if len(args) > 1 else None))
            items = selection[1] if selection and selection[0] == "seq" else [selection]
            for item in items:
                target = names.target(project, call.module, item)
                if target in sites and sites[target].kind == "asset" and target not in own:
                    _apply(sites[target], job_policy)

    def _invoked_ops(self, project: Project, fn: FunctionSummary, sites: dict[str, JobSite], seen: set):
        """(op, invocation policy) for each op a job or graph body invokes, through nested graphs."""
        if fn.qualname in seen:
            return
        seen.add(fn.qualname)
        mod = project.function_module[fn.qualname]
        wrapped: dict[tuple[int, int], RetryPolicy] = {}
        for ev in fn.events:
            if ev.kind != "call" or not ev.name:
                continue
            name = names.canonical_in(project, mod, ev.name) or ""
            base, _, attr = name.rpartition(".")
            if attr == "with_retry_policy" and ev.args:
                found = retry_from(ev.args[0], Anchor(mod.path, ev.line, ev.col, ev.end_line, ev.end_col), project,
                                   "with_retry_policy: ")
                if found is not None:
                    wrapped[(ev.line, ev.col)] = found
            target = _invoked(name, sites)
            if target is None:
                continue
            site = sites[target]
            if site.kind == "graph":
                yield from self._invoked_ops(project, project.functions[target], sites, seen)
            elif site.kind in RETRIED_KINDS:
                yield target, wrapped.get((ev.line, ev.col))

    def find_registrations(self, project: Project) -> list[Registration]:
        return []


def _retry_requested(project: Project, fn: FunctionSummary) -> RetryPolicy | None:
    """`raise RetryRequested(max_retries=2)` in the body: retried where it is raised (default once)."""
    mod = project.function_module[fn.qualname]
    raise_lines = {ev.line for ev in fn.events if ev.kind == "raise"}
    events = [ev for ev in fn.events if ev.line in raise_lines]  # what is raised, and the calls building it
    for ev in events:
        if ev.kind != "raise" or not ev.name:
            continue
        name = names.canonical_in(project, mod, ev.name) or ""
        if name.startswith("dagster") and name.rpartition(".")[2] == "RetryRequested":
            ctor = next((c for c in events if c.kind == "call" and c.line == ev.line
                         and (c.name or "").rpartition(".")[2] == "RetryRequested"), None)
            kwargs = ctor.kwargs if ctor is not None else {}
            limit = retry_limit(project.deref(kwargs.get("max_retries")), RetryLimit.known(1), unlimited=())
            anchor = Anchor(mod.path, ev.line, ev.col, ev.end_line, ev.end_col)
            return policy(f"raise RetryRequested({describe(kwargs, ('max_retries', 'seconds_to_wait'))})", anchor,
                          retries=limit, on=(), explicit=True, backoff="constant",
                          delay=seconds(project.deref(kwargs.get("seconds_to_wait"))))
    return None


def _invoked(name: str, sites: dict[str, JobSite]) -> str | None:
    """The op a call in a job body invokes: `op(...)`, `op.alias("a")(...)`, `op.with_retry_policy(p)(...)`."""
    if name in sites:
        return name
    base, _, attr = name.removesuffix("()").rpartition(".")
    while attr in _INVOCATION_WRAPPERS and base:
        if base in sites:
            return base if name.endswith("()") else None
        base, _, attr = base.removesuffix("()").rpartition(".")
    return None


def _apply(site: JobSite, found: RetryPolicy) -> None:
    if site.retry is None or site.retry.from_default or found.retries.most_key() > site.retry.retries.most_key():
        site.retry = found


def _reads_dagster_call(project: Project, module, ev) -> bool:
    return (project.canonical(ev.name) or "").startswith("dagster")


FRAMEWORK = Dagster()
