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


def idle_retry_loop(project: ProjectView, qualname: str, policy: RetryPolicy) -> bool:
    """A retry loop whose `try` makes no external effect (waiting for a database to come up,
    re-reading a file): how often and how fast it goes round is no job's failure mode."""
    if policy.loop is None:
        return False
    loop_id, try_id = policy.loop
    events = project.functions[qualname].events
    return not any(loop_id in events[ce.event_index].loops and (try_id is None or try_id in events[ce.event_index].tries)
                   for ce in project.call_effects(qualname))
