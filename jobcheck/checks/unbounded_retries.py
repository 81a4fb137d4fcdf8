"""JC202 unbounded-retries: something really retries the job, and nothing ever stops it: Celery
`max_retries=None`, Temporal's default RetryPolicy (`maximum_attempts=0`), django-q's
`max_attempts=0` on a broker that redelivers, tenacity with no `stop`, Dramatiq or streaQ with
`None`, a body that asks for retries no one counts (huey's `raise RetryTask` with `retries=0`,
PgQueuer's `raise RetryRequested`, a wrapper that enqueues the job again).

What is judged is the `RetryPolicy` the frameworks record: `bounded` is false only where the
framework's own setting or default means "no limit". A count held in a name
(`max_retries=settings.X`, `stop_after_attempt(MAX)`) or a time limit is bounded. Configuration
nothing triggers (`max_retries=None` with no `autoretry_for` and no `self.retry`) is dead and
stays quiet, as is a policy whose every retry request passes its own `max_retries=`. A failure
handler or dead-letter queue on an unlimited policy does not help: exhaustion never comes, so it
never runs; the finding says so.
"""

from __future__ import annotations

from ..analysis.jobs import Anchor, RetryPolicy
from ..analysis.names import short
from ..analysis.values import lit
from .context import CheckContext, ProjectView, event_anchor
from .retry_sources import retry_framework

CODES = ("JC202",)

_UNREAD = object()

# What to write instead, per framework or retry library.
ADVICE = {
    "celery": "give it a count, `max_retries=5` (Celery's default is 3) with `retry_backoff=True`, and let the "
              "last failure reach `on_failure` or a dead-letter queue",
    "dramatiq": "give it a count, `max_retries=5` (Dramatiq's default is 20), and `on_retry_exhausted` to send "
                "the message where someone looks",
    "temporal": "pass `retry_policy=RetryPolicy(maximum_attempts=5)` where the workflow schedules the activity, "
                "and handle the `ActivityError` the workflow then gets",
    "django_q": "set `max_attempts` in `Q_CLUSTER` (0, the default, means forever)",
    "tenacity": "add `stop=stop_after_attempt(5)` (or `stop_after_delay(...)`) and let the final `RetryError` "
                "reach someone",
    "backoff": "pass `max_tries=` or `max_time=`",
    "retrying": "pass `stop_max_attempt_number=` or `stop_max_delay=`",
    "stamina": "pass a number of `attempts=` (stamina's default is 10)",
    "huey": "count the retries (huey does not count `RetryTask`: pass `context=True` and give up once "
            "`task.retries` or your own counter says so), or set `retries=N` and let exceptions retry",
    "pgqueuer": "count the attempts before `raise RetryRequested`, or retry with "
                "`DatabaseRetryEntrypointExecutor(max_attempts=5)`",
    "procrastinate": "use `retry=RetryStrategy(max_attempts=5, exponential_wait=2)`",
    "streaq": "set `max_tries=` to a number",
    "loop": "count the attempts (`for attempt in range(5):`) and let the last failure raise where a person sees it",
}
GENERIC = "count the attempts and give up after a few, where a person sees the failure"


def run(ctx: CheckContext):
    project = ctx.project
    shared: dict[Anchor, list] = {}  # a policy's setting -> [first finding's parts, functions it retries]
    for qualname, fn in ctx.reached_functions(retried=True):
        for policy in project.retry_policies(qualname):
            if not policy.bounded:
                _judge(project, ctx, qualname, policy, shared)
    for anchor, ((policy, framework, display, job, trigger), retried) in shared.items():
        others = len(retried) - 1
        also = f" (and {others} other job{'s' if others > 1 else ''} with this setting)" if others else ""
        default = " (the framework's default: nothing is written)" if policy.from_default else ""
        handler = (f"its {policy.failure_handler} never runs, because exhaustion never comes"
                   if policy.failure_handler else "it never reaches a failure handler or the failed-job list")
        yield ctx.finding(
            "JC202", anchor,
            f"`{short(display)}`{also} is retried without limit: {policy.setting}{default}, {trigger}. "
            + (f"A result that never comes (a job stuck, a status never set) is waited for forever, repeating what "
               f"ran before it each round, and {handler}." if policy.on_result else
               f"A failure that never clears (bad input, a revoked credential, a dependency gone for good) is retried "
               f"forever, repeating what ran before it each time, and {handler}.")
            + f" Instead, {ADVICE.get(framework, GENERIC)}.",
            job=job, function=retried[0],
        )


def _judge(project: ProjectView, ctx: CheckContext, qualname: str, policy: RetryPolicy, shared: dict) -> None:
    """Note an unlimited policy once per setting, with the functions it retries."""
    points = project.explicit_retry_points(qualname) if policy.on == () else []
    if points and all(_counts_itself(project, qualname, i) for i in points):
        return
    if policy.anchor in shared:
        shared[policy.anchor][1].append(qualname)
        return
    site = project.jobs.get(qualname)
    display = site.display if site is not None else qualname
    framework = retry_framework(project, qualname, policy)
    trigger = _trigger(project, qualname, policy, points)
    shared[policy.anchor] = [(policy, framework, display, ctx.job_of(qualname) or display, trigger), [qualname]]


def _counts_itself(project: ProjectView, qualname: str, index: int, depth: int = 0) -> bool:
    """A retry request that passes its own count (`self.retry(exc=e, max_retries=5)`, a name too);
    Celery reads `max_retries=None` there as "the task's own". A helper the task hands itself to
    counts when each of its own requests does."""
    event = project.functions[qualname].events[index]
    helpers = project.retry_helpers(qualname, event) if depth < 2 else []  # (helpers calling each other end)
    if helpers:
        return all(_counts_itself(project, h.qualname, i, depth + 1)
                   for h in helpers for i in project.explicit_retry_points(h.qualname))
    value = event.kwargs.get("max_retries")
    return value is not None and lit(value, _UNREAD) is not None


def _trigger(project: ProjectView, qualname: str, policy: RetryPolicy, points: list[int]) -> str:
    """What makes it retry: any exception, the ones listed, or the body's requests."""
    if policy.on_result:
        return "on a result it does not accept"
    if policy.on is None:
        return "on any failure" if policy.loop is not None else "on any exception"
    if policy.on:
        return "on " + ", ".join(f"`{n.rpartition('.')[2]}`" for n in policy.on)
    lines = sorted({event_anchor(project, qualname, i).line for i in points})
    return f"asked for by the body at line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}"
