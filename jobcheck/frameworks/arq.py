"""arq: coroutines listed in a worker settings class (`functions = [f, func(g, max_tries=3)]`,
`cron_jobs = [cron(h, hour=3)]`), in `Worker(functions=...)`, or `run_worker(Settings,
functions=...)`; targets as references or dotted strings; `enqueue_job("name")` enqueues them.

Retries: a job runs again only when it raises `arq.Retry` (or is cancelled when the worker shuts
down), up to `max_tries` — the function's own (`func(..., max_tries=)`), else the worker's
(`WorkerSettings.max_tries`, default 5). Cron jobs default to `max_tries=1`. `retry_jobs = False`
turns retries off. `Retry(defer=...)` without a defer re-runs at once.

A settings class is arq's when its module imports arq, when it lists `func(...)`/`cron(...)`, when
it is handed to `run_worker`/`create_worker`, or — arq's CLI loads `module.WorkerSettings` by
name — when it is called `WorkerSettings` and lists only coroutines taking `ctx` first.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in, target
from ..analysis.program import calls_named, classes_where
from ..analysis.project import Project
from ..analysis.summary import ClassSummary, ModuleSummary
from ..analysis.values import call_args, call_kwargs, lit
from .base import (
    class_attrs,
    describe,
    has_attr,
    job_from_function,
    policy,
    retry_limit,
)

FUNC = ("arq.func", "arq.worker.func")
CRON = ("arq.cron", "arq.cron.cron")
WORKER = ("arq.Worker", "arq.worker.Worker")
RUN_WORKER = ("arq.run_worker", "arq.worker.run_worker", "arq.worker.create_worker", "arq.create_worker")
DEFAULT_MAX_TRIES = 5
CRON_MAX_TRIES = 1


class Arq:
    name = "arq"

    def find_jobs(self, project: Project) -> list[JobSite]:
        return list(_jobs(project).values())

    def find_registrations(self, project: Project) -> list[Registration]:
        by_name: dict[str, list[str]] = {}
        for q, site in _jobs(project).items():
            by_name.setdefault(lit(site.settings.get("name"), q.rpartition(".")[2]), []).append(q)
        regs = []
        for site in calls_named(project, ("enqueue_job",), _reads_enqueue):
            ev = site.event
            first = ev.kwargs.get("function") or (ev.args[0] if ev.args else None)
            candidates = by_name.get(lit(first), []) if isinstance(lit(first), str) else []
            # A job name is the worker's: prefer the job in the enqueuing module, else a unique one.
            local = [q for q in candidates if project.function_module[q] is site.module]
            chosen = local or (candidates if len(candidates) == 1 else [])
            if chosen:
                settings = {k: v for k, v in ev.kwargs.items() if k in ("_job_id", "_defer_by", "_defer_until", "_expires", "_queue_name")}
                regs.append(Registration(chosen[0], self.name, "enqueue", site.anchor, settings=settings))
        return regs


def _jobs(project: Project) -> dict[str, JobSite]:
    return project.once("arq jobs", lambda: _compute_jobs(project))


def _compute_jobs(project: Project) -> dict[str, JobSite]:
    cached: dict[str, JobSite] = {}
    for owner, module, settings, anchor in _settings_sources(project):
        _read_settings(project, owner, module, settings, anchor, cached)
    # `func(f, ...)` / `cron(f, ...)` define an arq job wherever they are written (a fixture,
    # a factory), even when the list they go into is not a settings class we can read.
    for site in calls_named(project, ("func", "cron"), _reads_job_entry):
        name = canonical_in(project, site.module, site.event.name)
        entry = ["call", name, site.event.args, site.event.kwargs]
        key = "cron_jobs" if name in CRON else "functions"
        _read_settings(project, site.function.qualname, site.module, {key: ["seq", [entry]]}, site.anchor, cached)
    return cached


def _settings_sources(project: Project):
    """(owner, module, {setting: Value}, anchor) for each arq worker configuration."""
    handed = set()
    calls = []
    for site in calls_named(project, ("run_worker", "create_worker", "Worker"), _reads_worker_call):
        name = site.name or ""
        ev = site.event
        if name in RUN_WORKER and ev.args and ev.args[0][0] == "name":
            cls_name = canonical_in(project, site.module, ev.args[0][1])
            if cls_name in project.classes:
                handed.add(cls_name)
        kwargs = {k: v for k, v in ev.kwargs.items() if k != "**"}
        if "functions" in kwargs or "cron_jobs" in kwargs:
            calls.append((site.function.qualname, site.module, kwargs, site.anchor))
    for cls in classes_where(project, lambda cls: has_attr(project, cls, ("functions", "cron_jobs"))):
        attrs = class_attrs(project, cls)
        module = project.module_of_class(cls)
        if _is_arq_settings(project, module, cls, attrs, handed):
            yield cls.qualname, module, attrs, project.class_anchor(cls)
    yield from calls


def _is_arq_settings(project: Project, module: ModuleSummary, cls: ClassSummary, attrs: dict, handed: set) -> bool:
    if cls.qualname in handed:
        return True
    if any(v == "arq" or v.startswith("arq.") for v in module.imports.values()):
        return True
    entries = [e for key in ("functions", "cron_jobs") for e in _entries(project, module, attrs.get(key))]
    if any((canonical_in(project, module, e[1]) or "") in FUNC + CRON for e in entries if e[0] == "call"):
        return True
    if cls.name != "WorkerSettings" or not entries:
        return False
    for e in entries:
        fn = project.functions.get(target(project, module, e) or "")
        if fn is None or not fn.is_async or not fn.params or fn.params[0] != "ctx":
            return False
    return True


def _entries(project: Project, module: ModuleSummary, value: list | None) -> list:
    """The items of a `functions`/`cron_jobs` list, following one module-level name."""
    value = project.deref(value)
    if not value:
        return []
    if value[0] == "seq":
        return list(value[1])
    return []


def _read_settings(project: Project, owner: str, module: ModuleSummary, settings: dict, anchor, out: dict) -> None:
    worker_tries = _tries(settings.get("max_tries"), RetryLimit.known(DEFAULT_MAX_TRIES - 1))
    retry_jobs = lit(settings.get("retry_jobs"), True)
    tries_written = "max_tries" in settings
    for key in ("functions", "cron_jobs"):
        for entry in _entries(project, module, settings.get(key)):
            kwargs: dict = {}
            ref = entry
            periodic = key == "cron_jobs"
            if entry[0] == "call":
                callee = canonical_in(project, module, entry[1]) or ""
                if callee in CRON:
                    periodic = True
                elif callee not in FUNC:
                    continue
                args = call_args(entry)
                kwargs = call_kwargs(entry)
                ref = kwargs.get("coroutine") or (args[0] if args else None)
            qualname = target(project, module, ref)
            if qualname is None or qualname in out:
                continue
            fn = project.functions[qualname]
            site = job_from_function(project, fn, "arq", "periodic" if periodic else "task",
                                     triggers={"schedule" if periodic else "enqueue"})
            default = RetryLimit.known(CRON_MAX_TRIES - 1) if periodic else worker_tries
            site.retry = _policy(kwargs, anchor, default, tries_written and not periodic, retry_jobs)
            site.settings = {k: v for k, v in kwargs.items() if k in ("unique", "run_at_startup", "job_id", "timeout", "keep_result")}
            site.settings["registered_in"] = ["lit", owner]
            if isinstance(lit(kwargs.get("name")), str):
                site.settings["name"] = kwargs["name"]
            out[qualname] = site


def _tries(value, default: RetryLimit) -> RetryLimit:
    """`max_tries` counts tries, the first included; `None` means the worker's default."""
    return retry_limit(value, default, unlimited=(), attempts=True)


def _policy(kwargs: dict, anchor, default: RetryLimit, worker_written: bool, retry_jobs) -> RetryPolicy:
    limit = _tries(kwargs.get("max_tries"), default)
    tries = f"{limit.count + 1}" if limit.count is not None else limit.count_from
    written = describe(kwargs, ("max_tries",)) or f"max_tries={tries}" + ("" if worker_written else " (default)")
    if retry_jobs is False:
        return policy(f"{written}, retry_jobs=False", anchor, retries=RetryLimit.known(0), on=(), explicit=True)
    if limit.count == 0:
        return policy(written, anchor, retries=RetryLimit.known(0), on=(), explicit=True, from_default="max_tries" not in kwargs)
    return policy(
        f"{written}; retried on `raise Retry`",
        anchor,
        retries=limit,
        on=(),  # only `raise Retry` (and a run cancelled at shutdown) retries; other exceptions fail the job
        explicit=True,
        from_default="max_tries" not in kwargs and not worker_written,
        backoff="constant",
    )


def _reads_enqueue(project: Project, module, ev) -> bool:
    name = project.canonical(ev.name)
    return not name or name.startswith("arq.")  # an unresolved pool too (`ctx["redis"].enqueue_job`)


def _reads_job_entry(project: Project, module, ev) -> bool:
    name = canonical_in(project, module, ev.name)
    return name in FUNC or name in CRON


def _reads_worker_call(project: Project, module, ev) -> bool:
    name = project.canonical(ev.name)
    return name in RUN_WORKER or name in WORKER


FRAMEWORK = Arq()
