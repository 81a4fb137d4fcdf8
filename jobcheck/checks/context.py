"""What a check is given: the project's questions (`ProjectView`), the rules' catalog entries,
and a way to make findings (`CheckContext`).

A rule asks only what `ProjectView` lists (a test holds every rule module to it), so the linking
and the frameworks behind it can change without touching a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..analysis.delivery import Delivery
from ..analysis.jobs import Anchor, JobSite, RetryPolicy
from ..analysis.project import CallEffect
from ..analysis.summary import ClassSummary, Event, FunctionSummary, ModuleSummary
from ..effects.classify import Catalog
from ..model import Confidence, Finding, RuleInfo, Span


class ProjectView(Protocol):
    """The questions a rule may ask of the linked project (`analysis.project.Project`)."""

    jobs: dict[str, JobSite]
    """Every entry point, keyed by the qualified name of the function that runs."""
    job_context: dict[str, str]
    """Every function a job (or a retried function) reaches, mapped to one job it belongs to."""
    functions: dict[str, FunctionSummary]
    """Every function and method of the project, by qualified name."""
    function_module: dict[str, ModuleSummary]
    """The module each function is defined in (its `path` is the file)."""
    classes: dict[str, ClassSummary]
    """Every class of the project, by qualified name."""
    catalog: Catalog
    """The effect, guard, marker and transaction catalogs, with the configuration's additions."""
    retry_wrappers: dict[str, RetryPolicy]
    """Functions a retry decorator (tenacity, backoff, stamina) retries, job or not."""
    retry_loops: dict[str, list[RetryPolicy]]
    """Functions with retry loops written in their body (`for attempt in range(5): try: ...`)."""
    retried_functions: dict[str, JobSite]
    """Functions something runs again after a failure that are no jobs: under a retry decorator, or
    with a retry loop of their own that makes an effect again, wherever they are called from."""

    def canonical(self, name: str | None) -> str | None:
        """A name as summarised, resolved across modules (`app.send` -> `django.core.mail.send_mail`)."""

    def event_name(self, event: Event) -> str | None:
        """The resolved name of a call, raise or `with` event."""

    def deref(self, value: list | None) -> list | None:
        """The Value a module-level name stands for (`timeout=LOCK_SECONDS`, `schedule=EVERY_MINUTE`),
        or a helper of the application returns; else `value`."""

    def function_for(self, name: str | None) -> FunctionSummary | None:
        """The project's function a resolved call name runs, if any."""

    def callees(self, event: Event) -> list[FunctionSummary]:
        """The project's functions a call event can run (the one it names, a table's entries, a
        signal's receivers)."""

    def call_effects(self, qualname: str) -> list[CallEffect]:
        """Each unguarded external effect a function makes or reaches, by the call that leads there."""

    def catalog_effect(self, event: Event):
        """The effects catalog's entry for the effect a call makes itself, if any (named as the
        last link of an effect's chain)."""

    def retry_of(self, qualname: str) -> RetryPolicy | None:
        """The retry policy that really retries a function (dead configuration is None)."""

    def retry_policies(self, qualname: str) -> list[RetryPolicy]:
        """What runs (part of) a function again: `retry_of`, then each retry loop in its body that
        makes an effect. Rules about retries read this: `retry_of` alone misses the loops."""

    def delivery(self, qualname: str) -> Delivery | None:
        """What the job's framework and settings guarantee: at least once (a worker that dies
        mid-run leaves it to run again) or at most once, and what decides it (None: not a job)."""

    def explicit_retry_points(self, qualname: str) -> list[int]:
        """Indices of the events in a function that ask for a retry (`self.retry()`, `raise Retry`,
        a call of a helper the bound task is handed to that asks for one)."""

    def retry_helpers(self, qualname: str, event: Event) -> list[FunctionSummary]:
        """The helper a call hands the bound task to, when that helper asks for a retry itself."""

    def records_key(self, event: Event, fn: FunctionSummary | None = None) -> bool:
        """Is this call a database write that records an idempotency key? (`fn`: its function.)"""

    def key_records(self, fn: FunctionSummary) -> list[int]:
        """Indices of the events that record a key: writes that do, and calls of helpers that
        record one in a transaction of their own."""

    def writes_db(self, event: Event, fn: FunctionSummary | None = None) -> Confidence | None:
        """Is this call a database write (ORM, SQL text, SQLAlchemy Core), and how sure are we?"""

    def same_transaction(self, fn: FunctionSummary, a: Event, b: Event) -> bool:
        """Are two events of a function in one database transaction?"""

    def transaction_regions(self, fn: FunctionSummary) -> set[int]:
        """The ids of the regions of a function that are database transactions."""

    def function_is_transactional(self, fn: FunctionSummary) -> bool:
        """Does a decorator run the whole function in one transaction, or is every call of it
        inside one?"""


@dataclass
class CheckContext:
    project: ProjectView
    rules: dict[str, RuleInfo]
    docstring_section: str = "Reliability"
    # The function being checked, as far as the check went through `reached_functions`: where
    # an internal error is reported if the check fails.
    current: str | None = None

    def reached_functions(self, retried: bool = False):
        """(qualname, function) of each function a job reaches; with `retried`, also each function
        retried outside any job (`ProjectView.retried_functions`), for the rules about retries: a
        retry loop that posts again on its timeout is one wherever it is called from."""
        names = list(self.project.job_context)
        if retried:
            names += [q for q in self.project.retried_functions if q not in self.project.job_context]
        for qualname in names:
            fn = self.project.functions.get(qualname)
            if fn is not None:
                self.current = qualname
                yield qualname, fn

    def finding(
        self,
        code: str,
        anchor: Anchor,
        message: str,
        *,
        confidence: Confidence = Confidence.HIGH,
        job: str | None = None,
        chain: tuple[str, ...] = (),
        function: str | None = None,
    ) -> Finding:
        rule = self.rules[code]
        return Finding(
            code=code,
            name=rule.name,
            path=anchor.path,
            span=Span(anchor.line, anchor.col + 1, anchor.end_line, anchor.end_col + 1),
            message=message,
            severity=rule.severity,
            confidence=confidence,
            job=job,
            chain=chain,
            function=function,
        )

    def job_of(self, qualname: str) -> str | None:
        root = self.project.job_context.get(qualname)
        if root is None:
            return None
        site = self.project.jobs.get(root)
        return site.display if site is not None else root


def event_anchor(project: ProjectView, qualname: str, index: int) -> Anchor:
    fn = project.functions[qualname]
    ev = fn.events[index]
    return Anchor(project.function_module[qualname].path, ev.line, ev.col, ev.end_line, ev.end_col)
