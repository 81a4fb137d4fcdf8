"""JC204 silent-retry-exhaustion: code a job runs catches the failure that says its retries ran
out, and says nothing: the work is given up for good, and no failure state, log at warning or
above, or error tracker records it.

The failure that says so is the framework's (`EXHAUSTION_ERRORS`: Celery's
`MaxRetriesExceededError`, tenacity's `RetryError`), caught by name, or caught as `Exception`
around a retry request (`self.retry(...)`, which raises it when no retry is left).
"""

from __future__ import annotations

from ..model import Confidence
from .context import CheckContext
from .handlers import exhaustion_caught, handler_anchor, says_nothing

CODES = ("JC204",)


def run(ctx: CheckContext):
    project = ctx.project
    for qualname, fn in ctx.reached_functions():
        path = project.function_module[qualname].path
        for handler in fn.handlers:
            caught = exhaustion_caught(fn, handler)
            if caught is None or not says_nothing(fn, handler):
                continue
            yield ctx.finding(
                "JC204",
                handler_anchor(path, handler),
                f"retries that run out end here: {caught} catches the error that says so and says nothing (no "
                f"raise, nothing logged at warning or above), so the work is given up for good and no one hears of "
                f"it. Let it raise, or report it where a person looks (`logger.error`, your error tracker, a "
                f"dead-letter table)",
                confidence=Confidence.HIGH,
                job=ctx.job_of(qualname),
                function=qualname,
            )
