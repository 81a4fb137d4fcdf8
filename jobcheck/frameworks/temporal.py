"""Temporal (temporalio): activities, where effects belong, and workflows.

- `@activity.defn` functions and methods (kind "activity"). Activities retry by default, without
  limit: Temporal's default RetryPolicy has `maximum_attempts=0` (unlimited), `initial_interval`
  1 s, `backoff_coefficient` 2.0. The policy is chosen where a workflow schedules the activity —
  `workflow.execute_activity(charge, ..., retry_policy=RetryPolicy(maximum_attempts=3))`, and
  `start_activity`, the `_method` / `_class` and local-activity variants — whose first argument is
  the activity: a function, a method (`Activities.charge`), a callable class, or its registered
  name. An activity scheduled anywhere without a `retry_policy`, or never scheduled in the analysed
  code, has the default; across call sites the policy with the most attempts is the one reported.
  A `schedule_to_close_timeout` at the call bounds the retries by time.
- `@workflow.defn` classes (kind "workflow"): the `@workflow.run` method is the entry point,
  documented on the class. A workflow is not retried unless its starter asks, and its code must
  be deterministic: effects go in activities.
"""

from __future__ import annotations

from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in, target
from ..analysis.program import calls_named, classes_where, deco_name
from ..analysis.decorators import decorated_functions
from ..analysis.project import Project
from ..analysis.values import call_args, call_kwargs, call_name, lit, render
from .base import job_from_function, policy, retry_limit
from .durations import seconds

ACTIVITY_DECORATOR = "temporalio.activity.defn"
WORKFLOW_DECORATOR = "temporalio.workflow.defn"
RUN_DECORATOR = "temporalio.workflow.run"
SCHEDULE_CALLS = tuple(
    f"{verb}_{local}activity{suffix}"
    for verb in ("execute", "start") for local in ("", "local_") for suffix in ("", "_method", "_class")
)
DEFAULT_INITIAL_INTERVAL_S = 1.0


def default_policy(anchor: Anchor, where: str = "") -> RetryPolicy:
    return policy(
        f"Temporal's default RetryPolicy (maximum_attempts=0: unlimited){where}", anchor,
        retries=RetryLimit.unlimited(), on=None, from_default=True, backoff="exponential", delay=DEFAULT_INITIAL_INTERVAL_S,
    )


def retry_from(value: list | None, anchor: Anchor, project: Project) -> RetryPolicy | None:
    """`RetryPolicy(maximum_attempts=3, initial_interval=timedelta(seconds=2))` as a policy."""
    value = project.deref(value)
    name = call_name(value) or ""
    if not name.startswith("temporalio") or name.rpartition(".")[2] != "RetryPolicy":
        return None
    kwargs = call_kwargs(value)
    # maximum_attempts counts attempts; 0, the default, is no limit
    limit = retry_limit(project.deref(kwargs.get("maximum_attempts")), RetryLimit.unlimited(), unlimited=(0,), attempts=True)
    coefficient = lit(project.deref(kwargs.get("backoff_coefficient")), 2.0)
    initial = seconds(project.deref(kwargs.get("initial_interval")))
    return policy(
        f"retry_policy={render(value)}", anchor,
        retries=limit,
        on=None,
        backoff="constant" if coefficient == 1 else "exponential",
        delay=initial if initial is not None else DEFAULT_INITIAL_INTERVAL_S,
    )


def _worst(a: RetryPolicy, b: RetryPolicy) -> RetryPolicy:
    """The policy that retries more."""
    return b if b.retries.most_key() > a.retries.most_key() else a


class Temporal:
    name = "temporal"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return name in (ACTIVITY_DECORATOR, RUN_DECORATOR)

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        names: dict[str, str] = {}  # registered activity name -> function
        for d in decorated_functions(project, self.name):
            if d.name != ACTIVITY_DECORATOR or d.function.qualname in sites:
                continue
            site = job_from_function(project, d.function, self.name, "activity", triggers={"enqueue"})
            sites[d.function.qualname] = site
            kwargs = call_kwargs(d.value) if d.is_call else {}
            registered = lit(kwargs.get("name") or (call_args(d.value)[:1] or [None])[0], None)
            names[registered if isinstance(registered, str) else d.function.name] = d.function.qualname
        self._schedules(project, sites, names)
        for site in sites.values():
            if site.retry is None:
                site.retry = default_policy(site.anchor, "; not scheduled with a retry_policy in the analysed code")
        for fn in self._through_wrappers(project, sites):
            # Its retry policy is the wrapper's, not known here: none is assumed.
            sites[fn.qualname] = job_from_function(project, fn, self.name, "activity", triggers={"enqueue"})
        sites.update(self._workflows(project))
        return list(sites.values())

    def _schedules(self, project: Project, sites: dict[str, JobSite], names: dict[str, str]) -> None:
        for call in calls_named(project, SCHEDULE_CALLS, _reads_temporal_call):
            ev = call.event
            ref = ev.kwargs.get("activity") or (ev.args[0] if ev.args else None)
            target = self._activity(project, call.module, ref, names)
            if target is None or target not in sites:
                continue
            found = retry_from(ev.kwargs.get("retry_policy"), call.anchor, project)
            if found is None:
                found = default_policy(call.anchor, f" at {ev.attr}(...) in {call.anchor.path}")
            if not found.bounded and "schedule_to_close_timeout" in ev.kwargs:
                # the whole run, retries included, ends at this timeout
                found.retries = RetryLimit.unknown_count(f"schedule_to_close_timeout={render(ev.kwargs['schedule_to_close_timeout'])}")
            site = sites[target]
            site.retry = found if site.retry is None else _worst(site.retry, found)

    def _through_wrappers(self, project: Project, sites: dict[str, JobSite]) -> list:
        """Functions a workflow module schedules through a helper of its own or of another library
        named as Temporal's calls (`execute_activity(Activities.detect, ...)`, wrapping
        `workflow.execute_activity`): activities, whatever decorates them."""
        out = []
        for call in calls_named(project, SCHEDULE_CALLS, _in_a_workflow_module):
            ev = call.event
            ref = ev.kwargs.get("activity") or (ev.args[0] if ev.args else None)
            fn = project.functions.get(self._activity(project, call.module, ref, {}) or "")
            if fn is not None and fn.qualname not in sites and fn not in out:
                out.append(fn)
        return out

    def _activity(self, project: Project, module, ref: list | None, names: dict[str, str]) -> str | None:
        if not ref:
            return None
        if ref[0] == "lit" and isinstance(ref[1], str):
            return names.get(ref[1])
        found = target(project, module, ref)
        if found:
            return found
        if ref[0] == "name" and ref[1]:
            cls = project.classes.get(canonical_in(project, module, ref[1]) or "")
            if cls is not None and "__call__" in cls.methods:  # a callable-class activity
                return f"{cls.qualname}.__call__"
        return None

    def _workflows(self, project: Project) -> dict[str, JobSite]:
        out: dict[str, JobSite] = {}
        def wanted(cls) -> bool:
            return any(project.canonical(deco_name(deco[0])) == WORKFLOW_DECORATOR for deco in cls.decorators)

        for cls in classes_where(project, wanted):
            for method in cls.methods:
                fn = project.functions.get(f"{cls.qualname}.{method}")
                if fn is None or not any(project.canonical(deco_name(d[0])) == RUN_DECORATOR for d in fn.decorators):
                    continue
                anchor = project.class_anchor(cls)
                out[fn.qualname] = JobSite(
                    function=fn.qualname, framework=self.name, kind="workflow", path=anchor.path, anchor=anchor,
                    display=cls.qualname, doc_owner=cls.qualname, triggers={"enqueue"},
                )
        return out

    def find_registrations(self, project: Project) -> list[Registration]:
        return []


def _reads_temporal_call(project: Project, module, ev) -> bool:
    return (project.canonical(ev.name) or "").startswith("temporalio.")


def _in_a_workflow_module(project: Project, module, ev) -> bool:
    """A scheduling call not Temporal's own, in a module that imports Temporal's workflow API."""
    return not _reads_temporal_call(project, module, ev) and any(
        str(imported).startswith("temporalio.workflow") or imported == "temporalio" for imported in module.imports.values())


FRAMEWORK = Temporal()
