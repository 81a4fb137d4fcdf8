"""SAQ (Simple Async Queue): the worker runs the coroutines listed in its settings — a module-level
dict in a module that imports saq (`settings = {"functions": [...], "cron_jobs": [...]}`, what
`saq module.settings` loads), or `Worker(queue, functions=[...], cron_jobs=[...])` — each bare
(its job name is the function's name) or as a `("name", function)` pair; `CronJob(function,
cron=...)` (kind "periodic") wherever it is written. A job runs when enqueued by name:
`queue.enqueue("name", ...)`, `queue.apply(...)`, `queue.map(...)`, or `Job(function="name", ...)`.

Retries: a job's `retries` is its number of attempts (SAQ's default 1: run once, not retried).
It is set where the job is made — at the enqueue call (`queue.enqueue("name", retries=3)`) or on
the `CronJob(..., retries=3)` — and with `retries=N` a job that raises any exception runs up to N
times in all, after `retry_delay` seconds (default 0), doubled per attempt with jitter when
`retry_backoff` is set.
"""

from __future__ import annotations

from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in, target
from ..analysis.program import calls_named, modules_where
from ..analysis.project import Project
from ..analysis.summary import ModuleSummary
from ..analysis.values import call_args, call_kwargs, call_name, dict_items, lit
from .base import describe, job_from_function, policy, retry_limit

WORKERS = ("saq.Worker", "saq.worker.Worker")
CRON_JOBS = ("saq.CronJob", "saq.job.CronJob")
JOBS = ("saq.Job", "saq.job.Job")
ENQUEUE_METHODS = ("enqueue", "apply", "map")
RETRY_KEYS = ("retries", "retry_delay", "retry_backoff")
SETTINGS = ("timeout", "heartbeat", "ttl", "unique", "cron", "key")
DEFAULT_RETRIES = 1  # attempts


class Saq:
    name = "saq"

    def find_jobs(self, project: Project) -> list[JobSite]:
        return [site for site, _ in _jobs(project).values()]

    def find_registrations(self, project: Project) -> list[Registration]:
        """`queue.enqueue("name", retries=3)` sets the attempts of the job it makes."""
        by_name: dict[str, list[str]] = {}
        for qualname, (_, name) in _jobs(project).items():
            by_name.setdefault(name, []).append(qualname)
        regs = []
        for site in calls_named(project, ENQUEUE_METHODS, _reads_enqueue):
            ev = site.event
            first = ev.args[0] if ev.args else ev.kwargs.get("job_or_func")
            kwargs = ev.kwargs
            if (canonical_in(project, site.module, call_name(first)) or "") in JOBS:
                kwargs = call_kwargs(first)
                first = kwargs.get("function") or (call_args(first)[0] if call_args(first) else None)
            candidates = by_name.get(lit(first), []) if isinstance(lit(first), str) else []
            local = [q for q in candidates if project.function_module[q] is site.module]
            chosen = local or (candidates if len(candidates) == 1 else [])
            if chosen:
                retry = retry_policy(kwargs, site.anchor, at_call=True) if "retries" in kwargs else None
                regs.append(Registration(chosen[0], self.name, "enqueue", site.anchor, retry=retry,
                                         settings={k: v for k, v in kwargs.items() if k in SETTINGS}))
        return regs


def retry_policy(kwargs: dict, anchor: Anchor, at_call: bool = False) -> RetryPolicy:
    limit = retry_limit(kwargs.get("retries"), RetryLimit.known(DEFAULT_RETRIES - 1), unlimited=(), attempts=True)  # counts attempts
    written = describe(kwargs, RETRY_KEYS) + (" (at the enqueue call)" if at_call and "retries" in kwargs else "")
    if limit.count == 0:
        return policy(written or f"retries={DEFAULT_RETRIES} (SAQ's default: one attempt, not retried)", anchor,
                      retries=RetryLimit.known(0), on=None, from_default="retries" not in kwargs, backoff="none")
    delay = lit(kwargs.get("retry_delay"), 0.0)
    backoff = lit(kwargs.get("retry_backoff"), False)
    readable = isinstance(delay, (int, float)) and not isinstance(delay, bool)
    return policy(
        written, anchor,
        retries=limit,
        on=None,  # any exception
        backoff="exponential" if backoff else ("constant" if readable and delay else "none"),
        delay=float(delay) if readable else None,
    )


def _jobs(project: Project) -> dict[str, tuple[JobSite, str]]:
    """qualname -> (job site, the job's name in the worker)."""
    return project.once("saq jobs", lambda: _compute_jobs(project))


def _compute_jobs(project: Project) -> dict[str, tuple[JobSite, str]]:
    out: dict[str, tuple[JobSite, str]] = {}
    for module, settings, anchor in _settings_sources(project):
        for entry in _entries(project, settings.get("functions")):
            ref, name = entry, None
            if entry[0] == "seq" and len(entry[1]) == 2 and isinstance(lit(entry[1][0]), str):
                name, ref = lit(entry[1][0]), entry[1][1]
            _add(project, module, ref, name, {}, anchor, False, out)
    # `CronJob(f, ...)` wherever it is written: in `cron_jobs`, in a list built elsewhere.
    for site in calls_named(project, ("CronJob",), _reads_cron_job):
        ev = site.event
        ref = ev.kwargs.get("function") or (ev.args[0] if ev.args else None)
        _add(project, site.module, ref, None, ev.kwargs, site.anchor, True, out)
    return out


def _add(project: Project, module: ModuleSummary, ref: list | None, name: str | None, kwargs: dict,
         anchor: Anchor, periodic: bool, out: dict) -> None:
    qualname = target(project, module, ref)
    if qualname is None or qualname in out:
        return
    fn = project.functions[qualname]
    site = job_from_function(project, fn, "saq", "periodic" if periodic else "task",
                             triggers={"schedule"} if periodic else {"enqueue"})
    site.retry = retry_policy(kwargs, anchor)
    site.settings = {k: v for k, v in kwargs.items() if k in SETTINGS}
    out[qualname] = (site, name or fn.name)


def _settings_sources(project: Project):
    """(module, {setting: Value}, anchor) for each SAQ worker configuration."""
    for mod in modules_where(project, _imports_saq):
        for var, (value, line, col, *_) in mod.assigns.items():
            items = {lit(k): v for k, v in dict_items(value) if isinstance(lit(k), str)}
            if "." not in var and ("functions" in items or "cron_jobs" in items):
                yield mod, items, Anchor(mod.path, line, col, line, col + len(var))
    for site in calls_named(project, ("Worker",), _reads_worker):
        ev = site.event
        settings = {k: v for k, v in ev.kwargs.items() if k in ("functions", "cron_jobs")}
        if len(ev.args) > 1:
            settings.setdefault("functions", ev.args[1])  # Worker(queue, functions, ...)
        yield site.module, settings, site.anchor


def _entries(project: Project, value: list | None) -> list:
    value = project.deref(value)
    return list(value[1]) if value and value[0] == "seq" else []


def _imports_saq(mod: ModuleSummary) -> bool:
    return any(v == "saq" or v.startswith("saq.") for v in mod.imports.values())


def _reads_worker(project: Project, module, ev) -> bool:
    return canonical_in(project, module, ev.name) in WORKERS


def _reads_cron_job(project: Project, module, ev) -> bool:
    return canonical_in(project, module, ev.name) in CRON_JOBS


def _reads_enqueue(project: Project, module, ev) -> bool:
    """A SAQ queue's method, or one on a queue that cannot be resolved (`ctx["queue"]`) in a
    module that imports saq."""
    name = canonical_in(project, module, ev.name) or ""
    return name.startswith("saq.") or (not name and _imports_saq(module))


FRAMEWORK = Saq()
