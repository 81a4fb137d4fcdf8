"""django-q2 (and django-q): `async_task(func, ...)`, `schedule(func, ...)`, `async_iter`,
`async_chain`, `Chain().append(func)`, `AsyncTask(func)`/`Iter(func)`, and `Schedule` rows
created in code (`Schedule.objects.create(func="app.tasks.report", ...)`). Targets are
references or dotted strings, often in another module.

Retries are the broker's redelivery, configured in `Q_CLUSTER`: with a broker that supports
delivery receipts (ORM, SQS, MongoDB, IronMQ, Pub/Sub, a custom `broker_class`), a failed task is
not acknowledged and is presented again after `retry` seconds (default 60), without limit unless
`max_attempts` (default 0: unlimited) — unless `ack_failures` (or the task's `ack_failure`) is
set. The default Redis broker pops tasks: a failed task is not retried. A task running longer
than `retry` is presented again while it still runs.

Callbacks run by the cluster, each once per task: the `hook=` a task or schedule names (called in
the monitor with the finished task), and the receivers of the signals the cluster sends around
each task (`pre_execute` in the worker before it, `post_execute` after it) and as it starts a
process (`post_spawn`). Not `pre_enqueue`: the code that enqueues sends it.
"""

from __future__ import annotations

from ..analysis.decorators import spread
from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in, forwarded, target
from ..analysis.program import CallSite, calls_named, modules_where
from ..analysis.project import Project
from ..analysis.summary import ModuleSummary
from ..analysis.values import dict_items, lit, render
from .base import job_from_function, policy, retry_limit

ASYNC = ("django_q.tasks.async_task", "django_q.tasks.async_iter", "django_q.tasks.AsyncTask", "django_q.tasks.Async",
         "django_q.tasks.Iter", "django_q.tasks.Chain().append", "django_q.tasks.Chain().add")
SCHEDULE = ("django_q.tasks.schedule",)
SCHEDULE_MODEL = ("django_q.models.Schedule",)
SCHEDULE_METHODS = ("create", "get_or_create", "update_or_create")
RECEIPT_BROKERS = ("orm", "sqs", "mongo", "iron_mq", "pubsub", "broker_class", "disque")
DEFAULT_RETRY_S = 60
_TASK_OPTIONS = ("hook", "failure_hook", "timeout_hook", "group", "timeout", "cluster", "ack_failure", "task_name", "cached", "sync")
_HOOKS = ("hook", "timeout_hook")
# The signals the cluster sends in its own processes.
SIGNALS = ("django_q.signals.pre_execute", "django_q.signals.post_execute", "django_q.signals.post_spawn")
_SCHEDULE_OPTIONS = ("name", "schedule_type", "minutes", "repeats", "cron", "cluster", "hook", "failure_hook", "next_run")


class DjangoQ:
    name = "django_q"

    def find_jobs(self, project: Project) -> list[JobSite]:
        return [job_from_function(project, project.functions[receiver], self.name, "callback", triggers={"enqueue"})
                for signal in SIGNALS for receiver in project.signal_receivers.get(signal, ())
                if project.the_applications(project.function_module[receiver])]

    def find_registrations(self, project: Project) -> list[Registration]:
        cluster = _cluster(project)
        regs: list[Registration] = []
        for site in calls_named(project, ("async_task", "async_iter", "AsyncTask", "Async", "Iter", "append", "add", "schedule"),
                                _reads_enqueue):
            name = canonical_in(project, site.module, site.event.name) or ""
            if name in ASYNC:
                regs.extend(self._register(project, site, "enqueue", "task", _TASK_OPTIONS, cluster))
            elif name in SCHEDULE:
                regs.extend(self._register(project, site, "schedule", "periodic", _SCHEDULE_OPTIONS, cluster))
        for site in calls_named(project, SCHEDULE_METHODS + ("Schedule",), _reads_schedule_model):
            name = canonical_in(project, site.module, site.event.name) or ""
            model = name.rpartition(".objects.")[0] if ".objects." in name else name
            if model in SCHEDULE_MODEL and (".objects." in name or name in SCHEDULE_MODEL):
                regs.extend(self._register(project, site, "schedule", "periodic", _SCHEDULE_OPTIONS, cluster, model=True))
        for site in calls_named(project, ("async_chain",), _reads_chain):
            name = canonical_in(project, site.module, site.event.name) or ""
            if name == "django_q.tasks.async_chain" and site.event.args:
                for link in site.event.args[0][1] if site.event.args[0][0] == "seq" else []:
                    ref = link[1][0] if link[0] == "seq" and link[1] else link
                    qualname = target(project, site.module, ref)
                    if qualname:
                        regs.append(Registration(qualname, self.name, "enqueue", site.anchor, retry=_policy(cluster, {}, site.anchor)))
        return regs

    def _register(self, project: Project, site: CallSite, trigger: str, kind: str, options: tuple, cluster: dict,
                  model: bool = False) -> list[Registration]:
        ev = site.event
        kwargs = spread(project, dict(ev.kwargs)) if "**" in ev.kwargs else dict(ev.kwargs)
        if model:
            defaults = kwargs.get("defaults")
            for k, v in dict_items(defaults):
                if isinstance(lit(k), str):
                    kwargs.setdefault(lit(k), v)
            ref = kwargs.get("func")
        else:
            ref = kwargs.get("func") or (ev.args[0] if ev.args else None)
        for k, v in dict_items(kwargs.get("q_options")):
            if isinstance(lit(k), str):
                kwargs.setdefault(lit(k), v)
        qualname = target(project, site.module, ref)
        forward = None if qualname else forwarded(site, ref)
        # The hooks run in the cluster's monitor once the task is done.
        hooks = [Registration(hook, self.name, "enqueue", site.anchor, kind="callback")
                 for key in _HOOKS if (hook := target(project, site.module, kwargs.get(key)))]
        if not qualname and not forward:
            return hooks
        settings = {k: v for k, v in kwargs.items() if k in options}
        if trigger == "schedule" and not _repeats(kwargs):
            kind = "task"  # `schedule_type` defaults to ONCE: one delayed run
        return [Registration(qualname or "", self.name, trigger, site.anchor, retry=_policy(cluster, kwargs, site.anchor),
                             kind=kind, settings=settings, forward=forward), *hooks]


def _repeats(kwargs: dict) -> bool:
    if "cron" in kwargs:
        return True
    kind = kwargs.get("schedule_type")
    if kind is None:
        return False
    text = kind[1] if kind[0] in ("name", "lit") and isinstance(kind[1], str) else ""
    return not (text.endswith("ONCE") or text == "O")


def _cluster(project: Project) -> dict:
    """The `Q_CLUSTER` settings dict (key -> Value) and where it is written, if the project has one."""
    return project.once("django q cluster", lambda: _compute_cluster(project))


def _compute_cluster(project: Project) -> dict:
    found: dict = {}

    def settings(mod: ModuleSummary) -> bool:
        assign = mod.assigns.get("Q_CLUSTER")
        return assign is not None and assign[0][0] == "dict"

    for mod in modules_where(project, settings)[:1]:
        assign = mod.assigns["Q_CLUSTER"]
        found = {lit(k): v for k, v in dict_items(assign[0]) if isinstance(lit(k), str)}
        found["@anchor"] = Anchor(mod.path, assign[1], assign[2], assign[1], assign[2] + len("Q_CLUSTER"))
    return found


def _policy(cluster: dict, kwargs: dict, enqueue_anchor: Anchor) -> RetryPolicy | None:
    """Redelivery of failed tasks, as the cluster's broker and settings make it."""
    broker = next((b for b in RECEIPT_BROKERS if b in cluster), None)
    if broker is None:
        return None  # the default Redis broker: a failed task is not presented again
    anchor = cluster.get("@anchor", enqueue_anchor)
    ack = lit(kwargs.get("ack_failure"), None)
    if ack is None:
        ack = lit(cluster.get("ack_failures"), False)
    limit = retry_limit(cluster.get("max_attempts"), RetryLimit.unlimited(), unlimited=(0, None), attempts=True)
    delay = lit(cluster.get("retry"), DEFAULT_RETRY_S)
    setting = f"Q_CLUSTER {broker} broker: retry={render(cluster['retry']) if 'retry' in cluster else DEFAULT_RETRY_S}" \
              f", max_attempts={render(cluster['max_attempts']) if 'max_attempts' in cluster else 0}"
    if ack:
        return policy(setting + ", ack_failures=True", anchor, retries=RetryLimit.known(0), on=())
    return policy(
        setting,
        anchor,
        retries=limit,
        on=None,  # an unacknowledged failure, whatever raised it, is presented again
        from_default="max_attempts" not in cluster,
        backoff="constant",
        delay=float(delay) if isinstance(delay, (int, float)) else None,
        failure_handler="failure_hook" if "failure_hook" in kwargs else None,
    )


def _reads_enqueue(project: Project, module, ev) -> bool:
    name = canonical_in(project, module, ev.name)
    return name in ASYNC or name in SCHEDULE


def _reads_schedule_model(project: Project, module, ev) -> bool:
    name = canonical_in(project, module, ev.name) or ""
    return (name.rpartition(".objects.")[0] if ".objects." in name else name) in SCHEDULE_MODEL


def _reads_chain(project: Project, module, ev) -> bool:
    return canonical_in(project, module, ev.name) == "django_q.tasks.async_chain"


FRAMEWORK = DjangoQ()
