"""JC201 retry-on-unguarded-effect: a retried function makes an external effect (email, HTTP
write, payment, SMS, publish, enqueue) — itself or through its callees — with no idempotency
guard, and the retry can run after the effect happened.

Retry scope matters: a retry repeats only what ran before the failure. An explicit retry
(`self.retry()`, `raise Retry`) that sits before every effect, or in another branch, repeats
nothing. Automatic retries (`autoretry_for`, Dramatiq's default, `Retry(max=...)`, tenacity)
on exceptions that any call can raise repeat every effect before the failure; automatic retries
on a specific exception repeat what ran before the places that raise it.
"""

from __future__ import annotations

from ..effects.catalog import BROAD_EXCEPTIONS
from ..jobs import RetryPolicy
from ..project import CallEffect, Project, exclusive
from ..summary import FunctionSummary
from . import CheckContext, event_anchor, short

CODES = ("JC201",)
_VERBS = {
    "email": "sends email",
    "sms": "sends an SMS",
    "http": "makes an HTTP write",
    "payment": "makes a payment call",
    "publish": "publishes a message",
    "enqueue": "enqueues another job",
}


def run(ctx: CheckContext):
    project = ctx.project
    candidates = set(project.jobs) | set(project.retry_wrappers)
    for qualname in sorted(candidates):
        if qualname not in project.functions:
            continue
        policy = project.retry_of(qualname)
        if policy is None:
            continue
        effects = project.call_effects(qualname)
        if not effects:
            continue
        fn = project.functions[qualname]
        points, automatic = _retry_points(project, fn, policy, effects)
        for ce in effects:
            if not automatic and not _repeated(fn, ce.event_index, points):
                continue
            site = project.jobs.get(qualname)
            display = site.display if site is not None else qualname
            chain = (qualname, *ce.path.chain)
            how = policy.setting if automatic or not points else f"{_retry_call(project, fn, points)}; {policy.setting}"
            yield ctx.finding(
                "JC201",
                event_anchor(project, qualname, ce.event_index),
                f"`{short(display)}` is retried ({how}) and {_VERBS[ce.path.kind]} with no "
                f"idempotency guard: {' -> '.join(short(c) for c in chain)}; a retry after this call repeats it. Pass an "
                f"idempotency key derived from the work, record a key in the same transaction, or go through an outbox",
                confidence=ce.path.confidence,
                job=ctx.job_of(qualname) or display,
                chain=chain,
                function=qualname,
            )


def _retry_points(project: Project, fn: FunctionSummary, policy: RetryPolicy, effects: list[CallEffect]):
    """The events after which a retry can happen, and whether any exception anywhere retries."""
    points = list(project.explicit_retry_points(fn.qualname))
    if policy.on is None:
        return points, True
    if not policy.on:
        return points, False
    effect_roots = {_root(ce.path.chain[-1]) for ce in effects} - _LOCAL_ROOTS(project)  # the effects' libraries
    automatic = False
    for exc in policy.on:
        exc = project.canonical(exc) or exc
        if exc in BROAD_EXCEPTIONS or exc.rpartition(".")[2] in {b.rpartition(".")[2] for b in BROAD_EXCEPTIONS}:
            automatic = True
            continue
        root = _root(exc)
        if root in effect_roots:
            automatic = True  # the effect's own library raises it: the effect may have happened
            continue
        owner = exc.rpartition(".")[0]
        for i, ev in enumerate(fn.events):
            name = project.event_name(ev) or ""
            if ev.kind == "raise" and (name == exc or name.rpartition(".")[2] == exc.rpartition(".")[2]):
                points.append(i)
            elif ev.kind == "call" and owner and (name.startswith(owner + ".") or (root and _root(name) == root and root not in _LOCAL_ROOTS(project))):
                points.append(i)
    return points, automatic


def _retry_call(project: Project, fn: FunctionSummary, points: list[int]) -> str:
    ev = fn.events[points[-1]]
    what = "raise Retry" if ev.kind == "raise" else f"{ev.attr}()"
    return f"{what} at line {ev.line}"


def _LOCAL_ROOTS(project: Project) -> set[str]:
    cached = project.__dict__.get("_local_roots")
    if cached is None:
        cached = {m.partition(".")[0] for m in project.modules}
        project.__dict__["_local_roots"] = cached
    return cached


def _root(name: str) -> str:
    return name.partition(".")[0].removesuffix("()")


def _repeated(fn: FunctionSummary, effect_index: int, points: list[int]) -> bool:
    """Can a retry happen after this effect ran? After it in the code, or later in a shared loop."""
    effect = fn.events[effect_index]
    for p in points:
        point = fn.events[p]
        if set(point.loops) & set(effect.loops):
            return True
        if exclusive(point, effect):
            continue
        if (point.line, point.col) > (effect.line, effect.col):
            return True
    return False
