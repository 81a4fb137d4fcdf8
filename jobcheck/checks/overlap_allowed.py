"""JC303 overlap-allowed: a periodic job whose run can outlast its interval, with nothing that
keeps the next run from starting while it runs.

The shapes (each is evidence that a run can outlast the interval, or that the scheduler starts
another one regardless):

- the job's own time limit is longer than its interval (Celery beat `schedule=30` with
  `time_limit=600`, RQ `interval=60` with `job_timeout=600`): the framework itself allows a run
  to last past the next start;
- APScheduler `max_instances` above 1 (its default, 1, skips a run while one is running);
- an Airflow DAG with `max_active_runs` above 1 whose tasks are not partitioned by run (no
  `{{ ds }}`, `logical_date`, `data_interval_*` in their arguments, no such parameter in their
  callables, no `get_current_context()`): runs started together do the same work;
- a job that runs at least every ten minutes (`FREQUENT`) and loops over a database query with
  no limit (no `[:n]`, `limit`/`first`, no `select_for_update(skip_locked=True)`), in a framework that
  starts a run whatever the previous one is doing: the loop grows with the table until one run
  outlasts the interval.

What keeps it quiet: a lock the job takes (`locks.locks_in`, with or without an expiry: a lock
with none is JC301's business), a set-if-absent marker, a task class or decorator that holds a
lock for the run (celery-once, celery-singleton, Huey's `lock_task`), a PostgreSQL advisory lock.
"""

from __future__ import annotations

import re

from ..analysis.jobs import Anchor, JobSite
from ..analysis.names import short
from ..analysis.summary import Event, FunctionSummary
from ..analysis.values import call_kwargs, call_name, dict_items, lit
from ..effects.catalog import ENQUEUE_METHODS
from ..effects.classify import PatternSet
from ..effects.leases import OVERLAP_GUARDS
from .context import CheckContext, ProjectView
from .locks import locks_in
from .reach import Reach
from .schedules import duration_text, interval_of, time_limit_of

CODES = ("JC303",)
FREQUENT = 600.0  # seconds: a job this frequent with a loop over a whole table can catch up with itself
# Schedulers that never start a run while the previous one runs, by default: APScheduler
# (max_instances=1, JC303 reads the setting), the schedule library and loops a process runs
# itself (one thread runs them in turn); Airflow DAGs are read as DAGs.
_SERIAL = ("apscheduler", "schedule", "background_loops", "airflow")
_GUARDS = PatternSet(OVERLAP_GUARDS)
_QUERY_METHODS = ("all", "filter", "exclude", "iterator", "order_by", "select_related", "prefetch_related",
                  "values", "values_list", "distinct", "only", "defer", "annotate", "query", "scalars", "fetchall")
_BOUNDS = ("limit", "first", "fetchmany", "get", "in_bulk", "earliest", "latest")
_ADVISORY_SQL = re.compile(r"advisory_(xact_)?lock|get_lock\(|skip\s+locked", re.I)
_DAG_DECORATORS = ("airflow.decorators.dag", "airflow.sdk.dag", "airflow.models.dag.dag", "airflow.sdk.definitions.dag.dag")
_DAGS = ("airflow.DAG", "airflow.models.DAG", "airflow.models.dag.DAG", "airflow.sdk.DAG", "airflow.sdk.definitions.dag.DAG")
_RUN_TEMPLATE = re.compile(r"\{\{[^}]*\b(ds|ds_nodash|ts|ts_nodash|logical_date|execution_date|data_interval_start|"
                           r"data_interval_end|run_id|dag_run|prev_ds|next_ds)\b")
_RUN_PARAMS = ("ds", "ds_nodash", "ts", "logical_date", "execution_date", "data_interval_start", "data_interval_end",
               "run_id", "dag_run", "context", "kwargs", "params", "ti", "task_instance")


def run(ctx: CheckContext):
    project = ctx.project
    guarded = Reach(project, lambda fn, i, ev: _guard(project, fn, i, ev))
    queries = Reach(project, lambda fn, i, ev: _query_loop(project, fn, i, ev))
    for qualname, site in project.jobs.items():
        if not _periodic(site) or site.framework == "airflow":
            continue
        found = _max_instances(project, site) or _limit_over_interval(project, site) or \
            _unbounded_loop(project, site, queries)
        if found is None or _guarded(project, site, guarded):
            continue
        yield ctx.finding("JC303", site.anchor, found + ". Take a lock with an expiry around the body (`with "
                          "redis.lock(name, timeout=..., blocking_timeout=0)`), or make the scheduler skip a run "
                          "while one is running", job=site.display, function=qualname)
    yield from _airflow_dags(ctx)


def _periodic(site: JobSite) -> bool:
    return site.kind == "periodic" or "schedule" in site.triggers


def _max_instances(project: ProjectView, site: JobSite) -> str | None:
    if site.framework != "apscheduler":
        return None
    n = lit(project.deref(site.settings.get("max_instances")))
    if not isinstance(n, int) or isinstance(n, bool) or n <= 1:
        return None
    return (f"`{short(site.display)}` is scheduled with `max_instances={n}`: APScheduler starts the next run while "
            f"up to {n - 1} earlier ones are still running, so runs overlap and do the same work at once")


def _limit_over_interval(project: ProjectView, site: JobSite) -> str | None:
    every, limit = interval_of(project, site), time_limit_of(project, site)
    if every is None or limit is None or limit[0] <= every[0]:
        return None
    return (f"`{short(site.display)}` runs every {duration_text(every[0])} (`{every[1]}`) but a run may last up to "
            f"{duration_text(limit[0])} (`{limit[1]}`): the next run starts while the previous one still runs")


def _unbounded_loop(project: ProjectView, site: JobSite, queries: Reach) -> str | None:
    if site.framework in _SERIAL:
        return None
    every = interval_of(project, site)
    if every is None or every[0] > FREQUENT:
        return None
    found = queries.below(site.function)
    if found is None:
        return None
    (line, query), chain = found
    where = f" in `{short(chain[-1])}`" if len(chain) > 1 else ""
    return (f"`{short(site.display)}` runs every {duration_text(every[0])} (`{every[1]}`) and loops over `{query}` with "
            f"no limit{where} (line {line}): as the table grows a run outlasts the interval, and nothing keeps the "
            f"next run from starting on the same rows")


def _query_loop(project: ProjectView, fn: FunctionSummary, index: int, ev: Event):
    """(line, query) when this call is in a loop over an unbounded database query and works on
    the row (handing it to a queue is a fan-out: quick, whatever the table's size)."""
    if not ev.loops or ev.attr in ENQUEUE_METHODS:
        return None
    loop = ev.loops[-1]
    sources = [j for j in {*ev.receiver_src, *(s for src in ev.argsrc for s in src)}
               if j < len(fn.events) and loop not in fn.events[j].loops and fn.events[j].kind == "call"]
    if not sources:
        return None
    chain = _chain(fn, max(sources))  # the iterable's outermost call: `.filter(...).limit(100)`
    names = [project.event_name(fn.events[k]) or "" for k in chain]
    if not any(".objects" in n or "session" in n.lower() for n in names):
        return None
    if not any(fn.events[k].attr in _QUERY_METHODS for k in chain):
        return None
    if any(fn.events[k].attr in _BOUNDS or "limit" in fn.events[k].kwargs or k in fn.sliced for k in chain):
        return None
    return ev.line, short(names[-1] or "?")


def _chain(fn: FunctionSummary, index: int) -> list[int]:
    """A call and the calls its receiver is built by (`X.objects.filter().order_by()`)."""
    out = [index]
    while fn.events[out[-1]].receiver_src and len(out) < 8:
        out.append(max(fn.events[out[-1]].receiver_src))
    return out


def _guarded(project: ProjectView, site: JobSite, guarded: Reach) -> bool:
    """A lock for the run: in the body or a helper, or by the task's class or decorator."""
    fn = project.functions.get(site.function)
    if fn is None:
        return True
    for value, *_ in fn.decorators:
        named = [call_name(value) or (value[1] if value and value[0] == "name" else None)]
        named += [v[1] for v in call_kwargs(value).values() if v and v[0] == "name"]
        if any(project.canonical(n) in _GUARDS for n in named if n):
            return True
    cls = project.classes.get(site.display)
    if cls is not None and any(b in _GUARDS for b in cls.bases if b):
        return True
    if any(project.canonical(r.name) in _GUARDS for r in fn.regions if r.name):
        return True
    return guarded.below(site.function) is not None


def _guard(project: ProjectView, fn: FunctionSummary, index: int, ev: Event):
    """A call that keeps a second run out: a lock, a set-if-absent marker, an advisory lock,
    rows taken with `skip_locked`."""
    name = project.event_name(ev) or ""
    if ev.attr == "set" and lit(ev.kwargs.get("nx")) is True or name in project.catalog.markers:
        return name
    if name in _GUARDS or lit(ev.kwargs.get("skip_locked")):
        return name
    sql = lit(ev.args[0]) if ev.args else None
    if isinstance(sql, str) and _ADVISORY_SQL.search(sql):
        return name
    return name if any(lock.index == index for lock in locks_in(project, fn)) else None


def _airflow_dags(ctx: CheckContext):
    """DAGs that allow several runs at once over tasks that do the same work in each run."""
    project = ctx.project
    if not any(site.framework == "airflow" for site in project.jobs.values()):
        return
    for qualname, fn in project.functions.items():
        for value, line, col, end_line, end_col in fn.decorators:
            if project.canonical(call_name(value)) in _DAG_DECORATORS:
                found = _dag(project, [], call_kwargs(value), fn, fn.events)
                if found:
                    yield ctx.finding("JC303", Anchor(project.function_module[qualname].path, line, col, end_line,
                                                      end_col), found, function=qualname)
        for i, ev in enumerate(fn.events):
            if ev.kind == "call" and project.event_name(ev) in _DAGS:
                found = _dag(project, ev.args, ev.kwargs, fn, _dag_scope(fn, i))
                if found:
                    mod = project.function_module[qualname]
                    yield ctx.finding("JC303", Anchor(mod.path, ev.line, ev.col, ev.end_line, ev.end_col), found,
                                      function=qualname)


def _dag_scope(fn: FunctionSummary, index: int) -> list[Event]:
    """The calls that make a DAG's tasks: inside its `with` block, or after it in the same code."""
    ev = fn.events[index]
    region = next((r.id for r in fn.regions if (r.line, r.col) == (ev.line, ev.col)), None)
    if region is not None:
        return [e for e in fn.events if region in e.regions]
    return fn.events[index + 1:]


def _dag(project: ProjectView, args: list, kwargs: dict, fn: FunctionSummary, scope: list[Event]) -> str | None:
    runs = lit(project.deref(kwargs.get("max_active_runs")))
    if not isinstance(runs, int) or isinstance(runs, bool) or runs <= 1:
        return None
    if any(_partitioned(project, ev) for ev in scope):
        return None
    dag_id = lit(kwargs.get("dag_id")) or (lit(args[0]) if args else None) or fn.name
    return (f"DAG `{dag_id}` allows {runs} runs at once (`max_active_runs={runs}`) and none of its tasks is "
            f"partitioned by run (no `{{{{ ds }}}}`, `logical_date` or `data_interval_*` in their arguments or "
            f"callables): a run that outlasts its interval, or a backfill, does the same work twice at once. Set "
            f"`max_active_runs=1`, or make each task work on its run's data interval")


def _partitioned(project: ProjectView, ev: Event) -> bool:
    """Does this task reads its run's date: a template in its arguments, or a callable that takes
    the run's context."""
    if any(_templated(v) for v in (*ev.args, *ev.kwargs.values())):
        return True
    targets = list(project.callees(ev))
    callable_ = ev.kwargs.get("python_callable")
    if callable_ and callable_[0] == "name":
        targets.append(project.function_for(project.canonical(callable_[1])))
    for fn in filter(None, targets):
        if any(p in _RUN_PARAMS for p in fn.params) or any(
                (project.event_name(e) or "").endswith("get_current_context") for e in fn.events):
            return True
    return False


def _templated(value: list | None, depth: int = 0) -> bool:
    if not value or depth > 4:
        return False
    if value[0] == "lit":
        return isinstance(value[1], str) and _RUN_TEMPLATE.search(value[1]) is not None
    if value[0] == "seq":
        return any(_templated(v, depth + 1) for v in value[1])
    if value[0] == "dict":
        return any(_templated(v, depth + 1) for _, v in dict_items(value))
    if value[0] in ("call", "fstr"):
        parts = value[1] if value[0] == "fstr" else [*value[2], *value[3].values()]
        return any(_templated(v, depth + 1) for v in parts)
    return False
