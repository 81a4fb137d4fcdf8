"""JC203 retry-without-backoff: a retry that really happens comes at once, or after a constant
delay under a second, so a dependency that is failing because it is overloaded gets every
failed job back immediately, several times over: a retry storm.

What is judged is what the frameworks record in the `RetryPolicy` (`backoff`, `delay`), and,
for retries the body asks for, the delay written at the request (`self.retry(countdown=0)`,
`raise Retry()` with no `defer`). Only shapes where the framework module reads the delay
reliably are reported; where a written delay cannot be read (a name, a computed value, a wait
strategy built with `+`), the rule says nothing. Exponential backoff is fine whatever its
start, except from exactly 0 where the framework multiplies the delay (0 doubled is 0). A
single immediate retry is not a storm and is not reported.
"""

from __future__ import annotations

import ast

from ..analysis.jobs import Anchor, RetryLimit, RetryPolicy
from ..analysis.names import short
from ..analysis.values import lit
from .context import CheckContext, ProjectView, event_anchor
from .retry_sources import retry_framework

CODES = ("JC203",)

_UNKNOWN = object()  # a value written but not readable

TINY_S = 1.0  # a constant delay below this is no delay for a struggling service

# What to use instead, per framework. A framework missing here is not judged.
ADVICE = {
    "celery": "set `retry_backoff=True` (exponential, jittered by default) with `retry_backoff_max`, or a "
              "`default_retry_delay` of tens of seconds (Celery's default is 180 s)",
    "tenacity": "add `wait=wait_random_exponential(multiplier=1, max=60)` (or `wait_exponential`)",
    "retrying": "add `wait_exponential_multiplier=1000, wait_exponential_max=60000` (milliseconds)",
    "rq": "give `Retry` an `interval`, growing: `Retry(max=3, interval=[10, 60, 300])`",
    "huey": "set `retry_delay` to tens of seconds (huey's default is 0), and `retry_backoff=2` to double it",
    "dramatiq": "leave `min_backoff` at its default (15000 ms) or at least 1000 ms: Dramatiq doubles it per retry",
    "dagster": "give the `RetryPolicy` a `delay` and `backoff=Backoff.EXPONENTIAL`, `jitter=Jitter.PLUS_MINUS`",
    "prefect": "set `retry_delay_seconds=exponential_backoff(backoff_factor=10)` (Prefect's default is 0)",
    "airflow": "leave `retry_delay` at its default (5 minutes) or set it to tens of seconds, with "
               "`retry_exponential_backoff=True`",
    "taskiq": "use `SmartRetryMiddleware(default_delay=10, use_delay_exponent=True, use_jitter=True)`",
    "temporal": "keep `backoff_coefficient` above 1 (the default is 2.0) and `initial_interval` at a second or more",
    "django_q": "set the cluster's `retry` to more than the task's `timeout` (the default is 60 s)",
    "luigi": "set the scheduler's `retry_delay` to tens of seconds (the default is 900 s)",
    "metaflow": "leave `minutes_between_retries` at its default (2) or at least 1",
    "loop": "sleep before the next attempt, growing with it and with jitter "
            "(`time.sleep(min(60, 2 ** attempt) + random.uniform(0, 1))`)",
    "recursion": "sleep before calling itself again, growing with the attempt and with jitter "
                 "(`time.sleep(min(60, 2 ** attempt) + random.uniform(0, 1))`)",
    "requeue": "enqueue it again with a `countdown` growing with the attempt and with jitter "
               "(`countdown=min(3600, 30 * 2 ** attempt) + random.uniform(0, 5)`)",
    "wrapper": "sleep before each call again, growing with the attempt and with jitter "
               "(`time.sleep(min(60, 2 ** attempt) + random.uniform(0, 1))`), whatever error it retries",
}
# Frameworks whose exponential backoff multiplies `delay`: from 0 it stays 0.
MULTIPLIED = ("dramatiq", "huey", "airflow", "taskiq", "dagster")
# Settings a framework module reads as 0 / "none" when they are written but cannot be read (a
# name, a call): written that way, the rule cannot tell and says nothing.
UNREADABLE_AS_ZERO = {
    "huey": ("retry_delay", "retry_backoff"),
    "tenacity": ("wait",),
    "dagster": ("delay", "backoff"),
    "celery": ("retry_backoff",),
}
# Retries the body asks for: the keyword that gives their delay, the other keywords that set
# when they run (a moment, not a delay: not judged), how many positional arguments come before
# the delay, what an absent delay means ("policy": the policy's delay; a number: that many
# seconds), and the spelling for messages.
POINT_DELAYS = {
    "celery": ("countdown", ("eta",), 5, "policy", "self.retry"),  # retry(args, kwargs, exc, throw, eta, countdown)
    "huey": ("delay", ("eta",), 2, "policy", "raise RetryTask"),  # RetryTask(msg, eta, delay)
    "arq": ("defer", (), 0, 0.0, "raise Retry"),  # Retry(defer)
    "dagster": ("seconds_to_wait", (), 1, 0.0, "raise RetryRequested"),  # RetryRequested(max_retries, seconds_to_wait)
}


def run(ctx: CheckContext):
    project = ctx.project
    shared: dict[Anchor, list] = {}  # a policy's setting -> [first finding's parts, functions it retries]
    for qualname, fn in ctx.reached_functions(retried=True):
        for policy in project.retry_policies(qualname):
            if _single(policy):
                continue
            framework = retry_framework(project, qualname, policy)
            if framework not in ADVICE and framework not in POINT_DELAYS:
                continue
            display = _display(project, qualname)
            job = ctx.job_of(qualname) or display
            uses_policy_delay = policy.on is None or bool(policy.on)  # automatic retries wait the policy's delay
            asks = []  # lines of explicit requests that wait the policy's delay
            if framework in POINT_DELAYS:
                key, moments, position, absent, spelling = POINT_DELAYS[framework]
                for index in project.explicit_retry_points(qualname):
                    anchor, written = _point_delay(project, qualname, index, key, moments, position)
                    if written is _UNKNOWN:
                        continue
                    if written is None and absent == "policy":
                        uses_policy_delay = True
                        asks.append(fn.events[index].line)
                        continue
                    delay = absent if written is None else written
                    if not isinstance(delay, float) or delay >= TINY_S:
                        continue
                    limit = _point_limit(project, qualname, anchor, policy)
                    if limit.count is not None and limit.count < 2:
                        continue  # `self.retry(countdown=0, max_retries=1)`: one retry
                    what = f"`{spelling}({key}={delay:g})`" if written is not None else f"`{spelling}()` with no {key}"
                    yield ctx.finding(
                        "JC203", anchor,
                        f"`{short(display)}` asks for a retry {_when(delay)}: {what}{_times(policy, limit)}, so while what it "
                        f"calls is struggling every failure comes straight back. {_point_advice(framework, key)}",
                        job=job, function=qualname,
                    )
            when = _verdict(framework, policy) if uses_policy_delay else None
            if when is None:
                continue
            if policy.anchor in shared:
                shared[policy.anchor][1].append(qualname)
                continue
            by = ""
            if asks:  # only where the framework has POINT_DELAYS
                key, spelling = POINT_DELAYS[framework][0], POINT_DELAYS[framework][4]
                by = f" (and `{spelling}()` with no {key} at line{'s' if len(asks) > 1 else ''} {', '.join(map(str, asks))})"
            shared[policy.anchor] = [(policy, framework, display, job, when, by), [qualname]]
    for anchor, ((policy, framework, display, job, when, by), retried) in shared.items():
        others = len(retried) - 1
        also = f" (and {others} other job{'s' if others > 1 else ''} with this setting)" if others else ""
        yield ctx.finding(
            "JC203", anchor,
            f"`{short(display)}`{also} is retried {when}: {policy.setting}{by}{_times(policy)}, so while what it "
            f"calls is struggling every failure comes straight back. Use backoff instead: {ADVICE[framework]}",
            job=job, function=retried[0],
        )


def _single(policy: RetryPolicy) -> bool:
    """One retry at most."""
    return policy.limit is not None and policy.limit < 2


def _display(project: ProjectView, qualname: str) -> str:
    site = project.jobs.get(qualname)
    return site.display if site is not None else qualname


def _verdict(framework: str, policy: RetryPolicy) -> str | None:
    """How soon the policy's retries come, when that is too soon; None when they back off, wait
    long enough, or it is not known."""
    if framework not in ADVICE or _unreadable(framework, policy):
        return None
    backoff, delay = policy.backoff, policy.delay
    if backoff == "none":
        if delay not in (None, 0.0) or (framework == "dagster" and delay is None and _positional_delay(policy.setting)):
            return None
        return _when(0.0)
    if backoff == "constant" and delay is not None and delay < TINY_S:
        return _when(delay)
    if backoff in ("exponential", "linear") and delay == 0.0 and framework in MULTIPLIED:
        return "with no delay between tries (its exponential backoff starts from 0 s, and twice 0 is 0)"
    return None


def _when(delay: float) -> str:
    return "with no delay between tries" if delay == 0 else f"after a constant {delay:g} s"


def _times(policy: RetryPolicy, limit: RetryLimit | None = None) -> str:
    limit = limit or policy.retries
    if not limit.bounded:
        return ", without limit"
    if limit.count is None:
        return f", bounded by {limit.count_from}"
    return f", up to {limit.count} times"


def _point_limit(project: ProjectView, qualname: str, anchor: Anchor, policy: RetryPolicy) -> RetryLimit:
    """The retries a request allows: its own `max_retries=` (Celery's `self.retry`, Dagster's
    `RetryRequested`), else the policy's."""
    for ev in project.functions[qualname].events:
        if (ev.kind, ev.line, ev.col) == ("call", anchor.line, anchor.col) and "max_retries" in ev.kwargs:
            v = lit(ev.kwargs["max_retries"], _UNKNOWN)
            if isinstance(v, int) and not isinstance(v, bool):  # None is the task's own
                return RetryLimit.known(v)
            return policy.retries
    return policy.retries


def _point_advice(framework: str, key: str) -> str:
    if framework == "celery":
        return ("Pass a countdown that grows with the attempt, with jitter: "
                "`countdown=min(600, 10 * 2 ** self.request.retries) + random.uniform(0, 5)`")
    if framework == "arq":
        return "Pass a growing defer: `raise Retry(defer=ctx['job_try'] * 10)`"
    if framework == "huey":
        return "Pass a delay of tens of seconds: `raise RetryTask(delay=30)`"
    return f"Pass `{key}=` of tens of seconds, or use a `RetryPolicy` with `backoff=Backoff.EXPONENTIAL`"


def _point_delay(project: ProjectView, qualname: str, index: int, key: str, moments: tuple[str, ...], position: int):
    """(anchor, delay) written at an explicit retry request: seconds, None when none is written,
    or _UNKNOWN (a computed value, an `eta`, a `**` splat)."""
    fn = project.functions[qualname]
    ev = fn.events[index]
    if ev.kind == "raise":
        # `raise Retry(defer=5)`: the arguments are on the call that builds the exception.
        ctor = next((i for i in range(index - 1, -1, -1) if fn.events[i].kind == "call"
                     and fn.events[i].line == ev.line and fn.events[i].attr == ev.attr), None)
        if ctor is not None:
            index, ev = ctor, fn.events[ctor]
    anchor = event_anchor(project, qualname, index)
    if ev.kind != "call":
        return anchor, None  # `raise RetryTask` (the class): nothing written
    if "**" in ev.kwargs or any(k in ev.kwargs for k in moments):
        return anchor, _UNKNOWN
    if moments and len(ev.args) > position - len(moments):
        return anchor, _UNKNOWN  # positional arguments that reach the moment (the `eta` before the delay)
    value = ev.kwargs.get(key)
    if value is None and len(ev.args) > position:
        value = ev.args[position]
    if value is None:
        return anchor, None
    v = lit(value, _UNKNOWN)
    if v is None:
        return anchor, None  # `countdown=None` is the default
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return anchor, _UNKNOWN
    return anchor, float(v)


def _unreadable(framework: str, policy: RetryPolicy) -> bool:
    """Is a setting the framework module reads as 0 written as something it cannot read?"""
    for key in UNREADABLE_AS_ZERO.get(framework, ()):
        value = _written(policy.setting, key)
        if value is None:
            continue
        if not _is_number_literal(value):
            return True
    return False


def _is_number_literal(text: str) -> bool:
    """A rendered value that is a number, a boolean or None (`...` is how an expression renders)."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return False
    return value is None or isinstance(value, (int, float))


def _written(setting: str, key: str) -> str | None:
    """The source text of `key=...` in a setting as the framework module rendered it."""
    start = 0
    while True:
        at = setting.find(f"{key}=", start)
        if at < 0:
            return None
        if at == 0 or not (setting[at - 1].isalnum() or setting[at - 1] in "_."):
            break
        start = at + 1
    return _split(setting[at + len(key) + 1:])[0]


def _split(text: str) -> list[str]:
    """Top-level comma-separated parts of `text`, up to an unmatched closing bracket."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += ch
    parts.append(current.strip())
    return parts


def _positional_delay(setting: str) -> bool:
    """Dagster `RetryPolicy(3, DELAY)`: a delay given by position (the module reads it only as a
    readable duration)."""
    at = setting.find("RetryPolicy(")
    if at < 0:
        return False
    args = _split(setting[at + len("RetryPolicy("):])
    return sum(1 for a in args if a and "=" not in a.partition("(")[0]) > 1
