"""Shared pieces for framework modules: building job sites and retry policies from decorators."""

from __future__ import annotations

from ..analysis.jobs import Anchor, JobSite, RetryLimit, RetryPolicy
from ..analysis.decorators import Decorated, decorated_functions
from ..analysis.project import Project
from ..analysis.summary import FunctionSummary
from ..analysis.values import lit, render


def job_from_function(project: Project, fn: FunctionSummary, framework: str, kind: str, **extra) -> JobSite:
    return JobSite(
        function=fn.qualname,
        framework=framework,
        kind=kind,
        path=project.function_module[fn.qualname].path,
        anchor=project.anchor_of(fn),
        display=fn.qualname,
        doc_owner=fn.qualname,
        **extra,
    )


def kwargs_of(d: Decorated) -> dict:
    return d.value[3] if d.is_call else {}


def describe(kwargs: dict, keys: tuple[str, ...]) -> str:
    return ", ".join(f"{k}={render(kwargs[k])}" for k in keys if k in kwargs)


def int_or_none(value: list | None, default: int | None) -> int | None:
    """An integer setting; `None` written literally means "no limit"."""
    if value is None:
        return default
    v = lit(value, default=-1)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v == -1:
        return default
    return int(v)


_UNREAD = object()


def retry_limit(value: list | None, default: RetryLimit, unlimited: tuple = (None,), attempts: bool = False) -> RetryLimit:
    """A written retry count as a limit. Absent: `default`. A literal in `unlimited` (what the
    framework takes for "no limit": Celery's None, Temporal's 0): unlimited. A literal count:
    that many retries (one fewer where the framework counts attempts). Anything else, a name, a
    setting or a computed value: bounded, count unknown, held in what is written."""
    if value is None:
        return default
    v = lit(value, _UNREAD)
    if v is _UNREAD:  # a module variable not read to a literal is shown by its name
        return RetryLimit.unknown_count(value[1].rpartition(".")[2] if value[0] == "ref" else render(value))
    if (v is None or type(v) is int) and v in unlimited:  # not True/False for 1/0
        return RetryLimit.unlimited()
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
        return default
    return RetryLimit.known(max(int(v) - 1, 0) if attempts else int(v))


def policy(setting: str, anchor: Anchor, **fields) -> RetryPolicy:
    return RetryPolicy(setting=setting, anchor=anchor, **fields)


def matches(name: str, names: tuple[str, ...]) -> bool:
    """`name` is one of `names`, allowing a trailing `*` for prefixes."""
    for n in names:
        if n.endswith("*"):
            if name.startswith(n[:-1]):
                return True
        elif name == n:
            return True
    return False


def class_attrs(project: Project, cls) -> dict:
    """A class's attributes as Values, inherited ones first (a Task base's `autoretry_for`,
    arq `WorkerSettings` fields)."""
    out: dict = {}
    for name in reversed(project.class_bases(cls)):
        base_cls = project.classes.get(name)
        if base_cls is not None:
            out.update({k: v[0] for k, v in base_cls.attrs.items()})
    out.update({k: v[0] for k, v in cls.attrs.items()})
    return out


def has_attr(project: Project, cls, names: tuple[str, ...]) -> bool:
    """Does the class, or a project base of it, define one of these attributes?"""
    owners = [cls, *(project.classes.get(b) for b in project.class_bases(cls))]
    return any(owner is not None and name in owner.attrs for owner in owners for name in names)


class PeriodicDecorators:
    """A framework whose jobs are the functions a periodic decorator marks (`@periodic(spacing=60)`),
    each run on its own timer; the interval is read from `interval` (or the first argument, where
    `positional`)."""

    def __init__(self, name: str, decorators: tuple[str, ...], interval: str, positional: bool = False) -> None:
        self.name, self.decorators, self.interval, self.positional = name, decorators, interval, positional

    def reads_decorator(self, name: str) -> bool:
        return name in self.decorators

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []
        for d in decorated_functions(project, self.name):
            if d.name not in self.decorators or lit(kwargs_of(d).get("enabled"), True) is False:
                continue  # `enabled=False`: switched off where it is written
            every = kwargs_of(d).get(self.interval)
            if every is None and self.positional and d.is_call and d.value[2]:
                every = d.value[2][0]
            site = job_from_function(project, d.function, self.name, "periodic", triggers={"schedule"})
            if every is not None:
                site.settings = {self.interval: every}
            sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list:
        return []

