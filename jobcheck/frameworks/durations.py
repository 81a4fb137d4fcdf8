"""Durations written in settings: `timedelta(minutes=5)`, `pendulum.duration(seconds=30)`, or a
number of seconds. Used for retry delays and intervals (Airflow, Temporal, Dagster, Prefect)."""

from __future__ import annotations

from ..analysis.values import call_args, call_kwargs, call_name, lit

_UNITS = {"weeks": 604800.0, "days": 86400.0, "hours": 3600.0, "minutes": 60.0, "seconds": 1.0,
          "milliseconds": 0.001, "microseconds": 0.000001}
# timedelta's positional order
_POSITIONAL = ("days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks")
_DURATION_TYPES = ("timedelta", "duration", "Duration")


def seconds(value: list | None) -> float | None:
    """The duration a Value denotes, in seconds; None when it is not a readable constant."""
    if not value:
        return None
    v = lit(value, None)
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    name = call_name(value) or ""
    if name.removesuffix("()").rpartition(".")[2] not in _DURATION_TYPES:
        return None
    total = 0.0
    for unit, arg in zip(_POSITIONAL, call_args(value)):
        n = lit(arg, None)
        if not isinstance(n, (int, float)) or isinstance(n, bool):
            return None
        total += n * _UNITS[unit]
    for unit, arg in call_kwargs(value).items():
        n = lit(arg, None)
        if unit not in _UNITS or not isinstance(n, (int, float)) or isinstance(n, bool):
            return None
        total += n * _UNITS[unit]
    return total
