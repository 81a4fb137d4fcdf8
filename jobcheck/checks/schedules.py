"""How often a periodic job runs and how long a run may last, in seconds, as its settings and
decorators say (JC303).

A schedule is read wherever a framework writes one: a setting the framework kept (Celery beat's
`schedule`, RQ's `interval`/`cron_string`), or the decorator that made the function a job
(`@periodic_task(crontab(minute="*/5"))`, `@scheduled_job("interval", minutes=5)`,
`run_every=timedelta(...)`). The forms: a number of seconds, a duration (`timedelta`,
`pendulum.duration`), Celery's and Huey's `crontab(...)`, APScheduler's `"interval"`/`"cron"`
keywords and `IntervalTrigger`/`CronTrigger`, and a five-field cron string. A cron schedule's
interval is the gap between its runs when its minute and hour fields make one plain (`*`,
`*/N`, a number, a list of numbers); anything else is unknown.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite
from ..analysis.values import call_args, call_kwargs, call_name, lit, render
from ..frameworks.durations import seconds
from .context import ProjectView

# Settings that hold a schedule, and the keywords a decorator gives one by.
_SCHEDULE_KEYS = ("schedule", "run_every", "interval", "cron_string", "cron", "periodic", "trigger")
# Time limits, by framework: the setting and how many seconds one unit is.
TIME_LIMITS = {
    "celery": (("time_limit", 1.0), ("soft_time_limit", 1.0)),
    "dramatiq": (("time_limit", 0.001),),  # milliseconds
    "rq": (("job_timeout", 1.0), ("timeout", 1.0)),
    "huey": (),
    "django_q": (("timeout", 1.0),),
}
_UNITS = {"weeks": 604800.0, "days": 86400.0, "hours": 3600.0, "minutes": 60.0, "seconds": 1.0}


def interval_of(project: ProjectView, site: JobSite) -> tuple[float, str] | None:
    """(seconds between runs, the setting as written) of a periodic job, where known."""
    for key in _SCHEDULE_KEYS:
        if key in site.settings:
            value = project.deref(site.settings[key])
            found = interval(project, value)
            if found is not None:
                return found, f"{key}={_describe(value)}"
    fn = project.functions.get(site.function)
    for value, *_ in fn.decorators if fn is not None else ():
        found = _decorator_interval(project, value)
        if found is not None:
            return found
    return None


def time_limit_of(project: ProjectView, site: JobSite) -> tuple[float, str] | None:
    """(seconds a run may last, the setting) where the job sets a limit the framework enforces."""
    best = None
    for key, unit in TIME_LIMITS.get(site.framework, ()):
        n = _number(project.deref(site.settings.get(key)))
        if n is not None and n > 0 and (best is None or n * unit > best[0]):
            best = (n * unit, f"{key}={lit(project.deref(site.settings[key]))}")
    return best


def interval(project: ProjectView, value: list | None) -> float | None:
    """Seconds between runs for one schedule Value."""
    value = project.deref(value)
    if not value:
        return None
    text = lit(value)
    if isinstance(text, str):
        return _cron_string(text)
    found = seconds(value)
    if found is not None:
        return found
    name = (call_name(value) or "").removesuffix("()").rpartition(".")[2]
    kwargs = {k: project.deref(v) for k, v in call_kwargs(value).items()}
    if name in ("schedule", "Schedule"):  # celery.schedules.schedule(run_every=...)
        every = kwargs.get("run_every") or next(iter(call_args(value)), None)
        return interval(project, every)
    if name in ("crontab", "CronTrigger", "cron"):
        if name == "cron" and call_args(value):
            return interval(project, call_args(value)[0])  # periodiq's cron("*/5 * * * *")
        return _crontab({k: lit(v) for k, v in kwargs.items()}, call_args(value))
    if name == "IntervalTrigger":
        return _units(kwargs)
    return None


def _decorator_interval(project: ProjectView, value: list) -> tuple[float, str] | None:
    """A schedule the decorator that made the job gives: its first argument or a schedule keyword;
    APScheduler's `("interval", minutes=5)` and `("cron", minute="*/5")`."""
    if not value or value[0] != "call":
        return None
    args, kwargs = call_args(value), call_kwargs(value)
    kind = lit(args[0]) if args else lit(kwargs.get("trigger"))
    if kind == "interval":
        found = _units({k: project.deref(v) for k, v in kwargs.items()})
        return None if found is None else (found, f"interval every {duration_text(found)}")
    if kind == "cron":
        found = _crontab({k: lit(project.deref(v)) for k, v in kwargs.items()}, [])
        return None if found is None else (found, f"cron every {duration_text(found)}")
    for candidate in ([args[0]] if args else []) + [kwargs[k] for k in _SCHEDULE_KEYS if k in kwargs]:
        found = interval(project, candidate)
        if found is not None:
            return found, _describe(project.deref(candidate))
    return None


def _units(kwargs: dict) -> float | None:
    total, seen = 0.0, False
    for unit, factor in _UNITS.items():
        n = _number(kwargs.get(unit))
        if n is not None:
            total, seen = total + n * factor, True
    return total if seen and total > 0 else None


def _crontab(fields: dict, args: list) -> float | None:
    """The gap between runs of a crontab whose minute and hour fields are plain; else None."""
    minute = fields.get("minute", lit(args[0]) if len(args) > 0 else "*")
    hour = fields.get("hour", lit(args[1]) if len(args) > 1 else "*")
    if any(k in fields and fields[k] not in ("*", None) for k in ("day_of_week", "day_of_month", "month_of_year",
                                                                  "day", "month", "week", "year", "second")):
        return None
    minutes = _cron_gap(minute, 60)
    if minutes is None:
        return None
    if hour in ("*", None):
        return minutes * 60.0
    if minute not in ("*", None) and _cron_gap(minute, 60) == 60:  # once an hour, on some hours
        hours = _cron_gap(hour, 24)
        return None if hours is None else hours * 3600.0
    return None


def _cron_gap(field, span: int) -> int | None:
    """The gap (in the field's units) between the values a cron field takes, where it is plain."""
    if field in ("*", None):
        return 1
    if isinstance(field, int):
        return span
    if not isinstance(field, str):
        return None
    field = field.strip()
    if field.startswith("*/") and field[2:].isdigit() and int(field[2:]) > 0:
        return int(field[2:])
    parts = field.split(",")
    if all(p.isdigit() for p in parts):
        values = sorted({int(p) for p in parts})
        gaps = [b - a for a, b in zip(values, values[1:])] + [span - values[-1] + values[0]]
        return min(gaps)
    return None


def _cron_string(text: str) -> float | None:
    parts = text.split()
    if len(parts) != 5 or any(p != "*" for p in parts[2:]):
        return None
    return _crontab({"minute": parts[0], "hour": parts[1]}, [])


def _number(value: list | None) -> float | None:
    n = lit(value)
    return float(n) if isinstance(n, (int, float)) and not isinstance(n, bool) else None


def duration_text(n: float) -> str:
    """`30 s`, `5 min`, `2 h`."""
    if n >= 3600 and n % 3600 == 0:
        return f"{int(n // 3600)} h"
    if n >= 60 and n % 60 == 0:
        return f"{int(n // 60)} min"
    return f"{n:g} s"


def _describe(value: list | None) -> str:
    return render(value)
