"""Rule implementations, one module per rule (or per tightly shared analysis).

Each module has `CODES` (the rules it can report) and `run(ctx)` yielding findings. Checks read
the linked project (`ctx.project`), never files: every file was parsed once, by the summary pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..jobs import Anchor
from ..model import Confidence, Finding, RuleInfo, Span
from ..project import Project


@dataclass
class CheckContext:
    project: Project
    rules: dict[str, RuleInfo]
    docstring_section: str = "Reliability"

    def reached_functions(self):
        """(qualname, function) of each function a job reaches."""
        for qualname in self.project.job_context:
            fn = self.project.functions.get(qualname)
            if fn is not None:
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


def all_checks() -> list:
    from . import (effect_outside_key_transaction, five_questions, key_provenance, lock_without_expiry,
                   retry_on_unguarded_effect, silent_retry_exhaustion, swallowed_job_failure)

    return [key_provenance, effect_outside_key_transaction, retry_on_unguarded_effect, silent_retry_exhaustion,
            swallowed_job_failure, lock_without_expiry, five_questions]


def event_anchor(project: Project, qualname: str, index: int) -> Anchor:
    fn = project.functions[qualname]
    ev = fn.events[index]
    return Anchor(project.function_module[qualname].path, ev.line, ev.col, ev.end_line, ev.end_col)


def short(name: str) -> str:
    """A name as a reader says it: from the class on (`Invoice.objects.filter().update`,
    `EmailMessage().send`), a library's top-level calls in full (`stripe.Charge.create`), else the
    module and the function (`notify.tell_customer`)."""
    parts = name.split(".")
    for i, part in enumerate(parts):
        if part[:1].isupper():
            return ".".join(parts[i - 1 if i == 1 else i :])
    return ".".join(parts[-2:]) if len(parts) > 2 else name
