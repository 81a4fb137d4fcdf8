"""What a check is given: the linked project, the rules' catalog entries, and a way to make
findings."""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.jobs import Anchor
from ..analysis.project import Project
from ..model import Confidence, Finding, RuleInfo, Span


@dataclass
class CheckContext:
    project: Project
    rules: dict[str, RuleInfo]
    docstring_section: str = "Reliability"
    # The function being checked, as far as the check went through `reached_functions`: where
    # an internal error is reported if the check fails.
    current: str | None = None

    def reached_functions(self):
        """(qualname, function) of each function a job reaches."""
        for qualname in self.project.job_context:
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


def event_anchor(project: Project, qualname: str, index: int) -> Anchor:
    fn = project.functions[qualname]
    ev = fn.events[index]
    return Anchor(project.function_module[qualname].path, ev.line, ev.col, ev.end_line, ev.end_col)
