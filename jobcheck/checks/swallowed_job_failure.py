"""JC205 swallowed-job-failure: a job's own body catches every exception (a bare `except`,
`except Exception`) and neither raises again nor reports anything at warning level or above, so a
run that failed ends as a success: no retry, no failure state, nothing for a person to see.

Only the function the scheduler calls counts (its outcome is the run's), and only a `try` that
is not inside a loop: catching per item so that one bad item does not stop a batch is a choice,
not a silent failure. A loop that runs until stopped (`while True:`, `while not stop.is_set():`)
is no batch but the job's own schedule: a `try` around its round counts. A handler that calls anything but a log below warning (a reporting
helper of the application, `self.retry`, Sentry) is taken to report.
"""

from __future__ import annotations

from ..analysis.jobs import STRUCTURAL_KINDS
from ..analysis.summary import FunctionSummary, Handler
from ..model import Confidence
from .context import CheckContext
from .handlers import (
    catches_every_failure,
    exhaustion_caught,
    guarded,
    handler_anchor,
    handler_calls,
    says_nothing,
)

CODES = ("JC205",)


def run(ctx: CheckContext):
    project = ctx.project
    for site in project.jobs.values():
        if site.kind in STRUCTURAL_KINDS:
            continue
        fn = project.functions.get(site.function)
        if fn is None:
            continue
        path = project.function_module[site.function].path
        for handler in fn.handlers:
            if not _swallows(fn, handler):
                continue
            caught = "a bare `except`" if not handler.types else f"`except {', '.join(handler.types)}`"
            logs = bool(handler_calls(fn, handler))  # below warning, or `_swallows` would not hold
            said = "logs it below warning" if logs else "says nothing"
            yield ctx.finding(
                "JC205",
                handler_anchor(path, handler),
                f"job `{site.display}` catches every failure here ({caught}), {said} and does not raise again: "
                f"a run that failed ends as a success, with no retry and no failure anyone sees. Let it raise "
                f"(or re-raise after cleaning up), or report it (`logger.exception`, your error tracker)",
                confidence=Confidence.MEDIUM if logs else Confidence.HIGH,
                job=site.display,
                function=site.function,
            )


def _swallows(fn: FunctionSummary, handler: Handler) -> bool:
    if not catches_every_failure(handler) or not says_nothing(fn, handler) or exhaustion_caught(fn, handler):
        return False  # (retries that run out, caught: JC204 says so)
    events = guarded(fn, handler)
    if not any(ev.kind == "call" for ev in events):
        return False  # nothing in the `try` can fail but names and arithmetic
    # In a loop: per item, so the others run; but a loop that runs until stopped is the job's own
    # schedule (`while not stop.is_set(): try: ... except Exception: log.debug(...)`), and a `try`
    # around its round is the run's outcome.
    return not (set.intersection(*(set(ev.loops) for ev in events)) - set(fn.forever))
