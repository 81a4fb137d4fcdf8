"""Which framework or retry library a policy comes from, for rules whose advice differs by it."""

from __future__ import annotations

from ..analysis.jobs import RetryPolicy
from .context import ProjectView


def retry_framework(project: ProjectView, qualname: str, policy: RetryPolicy) -> str | None:
    """The job's framework when the policy is its job's; else the top package of the retry
    decorator written at the policy's anchor (`tenacity`, `backoff`, `stamina`, `retrying`)."""
    site = project.jobs.get(qualname)
    if site is not None and site.retry is policy:
        return site.framework
    if policy.source is not None:
        return policy.source  # "wrapper": the application's own retry decorator
    fn = project.functions[qualname]
    for deco in fn.decorators:
        value, line, col = deco[0], deco[1], deco[2]
        if (line, col) == (policy.anchor.line, policy.anchor.col) and value and value[0] in ("call", "name"):
            return (project.canonical(value[1]) or value[1] or "").partition(".")[0] or None
    return None

