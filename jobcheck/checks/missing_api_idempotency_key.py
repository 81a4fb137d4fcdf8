"""JC104 missing-api-idempotency-key: a job that can run twice calls an API that accepts an
idempotency key (Stripe, Adyen, Square, GoCardless, SQS/SNS FIFO: `effects/catalog.py`
`IDEMPOTENCY_KEY_APIS`) without one, itself or through a helper.

A job runs twice when its delivery is at least once (Celery `acks_late`, Dramatiq, arq, Temporal
activities: `analysis/delivery.py`) or when a retry policy retries it, even if nothing in its body
asks for a retry. A key passed any way `Project.is_guarded` reads (a keyword, a header, the body,
an options dict) is enough here: where it comes from is JC101's and JC102's question.
"""

from __future__ import annotations

from ..analysis.names import short
from ..analysis.project import CallEffect
from .context import CheckContext, ProjectView, event_anchor

CODES = ("JC104",)


def run(ctx: CheckContext):
    project = ctx.project
    reported: set[tuple[str, int]] = set()
    for root in sorted(set(project.jobs) | set(project.retry_wrappers)):
        if root not in project.functions:
            continue
        for ce in project.call_effects(root):
            qualname, index = _innermost(project, root, ce)
            if (qualname, index) in reported:
                continue
            event = project.functions[qualname].events[index]
            how = project.catalog.accepts_key(ce.path.chain[-1], event.kwargs)
            twice = how and _runs_twice(project, root, ce)
            if not twice:
                continue
            reported.add((qualname, index))
            site = project.jobs.get(root)
            display = site.display if site is not None else root
            chain = (root, *ce.path.chain)
            yield ctx.finding(
                "JC104",
                event_anchor(project, qualname, index),
                f"`{short(ce.path.chain[-1])}` accepts an idempotency key ({how}) and is called without one in "
                f"`{short(display)}`, which can run twice: {twice}; chain {' -> '.join(short(c) for c in chain)}. "
                f"Pass a key derived from the work (the order or event id, not a fresh uuid), so the API "
                f"answers a second call with the first one's result instead of acting again",
                confidence=ce.path.confidence,
                job=ctx.job_of(root) or display,
                chain=chain,
                function=qualname,
            )


def _runs_twice(project: ProjectView, root: str, ce: CallEffect) -> str | None:
    """Why the job (or retried function) can run this call twice, or None."""
    delivery = project.delivery(root)
    if delivery is not None and delivery.at_least_once:
        return f"delivered at least once ({delivery.because})"
    policy = project.retry_of(root)
    if policy is None:
        return None
    if policy.on == ():
        # Retried only where the body asks: a retry asked for before the call repeats nothing.
        call = project.functions[root].events[ce.event_index]
        after = [p for p in project.explicit_retry_points(root)
                 if project.functions[root].events[p].line > call.line
                 or set(project.functions[root].events[p].loops) & set(call.loops)]
        if not after:
            return None
    return f"retried ({policy.setting})"


def _innermost(project: ProjectView, qualname: str, ce: CallEffect) -> tuple[str, int]:
    """The function and event index of the API call itself, following the chain through helpers
    (where the key has to be passed)."""
    while len(ce.path.chain) > 1:
        callee = ce.path.chain[0]
        inner = next((c for c in project.call_effects(callee) if c.path.chain == ce.path.chain[1:]), None)
        if inner is None:
            break
        qualname, ce = callee, inner
    return qualname, ce.event_index
