"""End states that differ, as the rows one has and the other lacks.

A :class:`~jobcheck.runtime.recorders.DbState` snapshot is typically a dict of query name ->
rows. Two lists of rows are compared as multisets: each row the scenario ended with more often
than the clean run is an extra ``+`` line, each it ended with less often a missing ``-`` line.
A few short ones stay on one line, more go on the lines below (and the report's one-line
answer shows the first)::

    database end state differs at totals: + (2,), - (1,)
    database end state differs at done: + ('u1',) (2 rows, expected 1)
    database end state differs at invoices: 4 extra rows
      + ('cus_1', '2024-05', 1200)
      ...

Anything else (a scalar, a list of plain values) is shown as the two values side by side.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

__all__ = ["state_problems"]

#: rows listed per query before "and N more"
MAX_ROWS = 8
#: a diff this small stays on the problem's one line
MAX_INLINE, MAX_INLINE_WIDTH = 3, 120
_ROW_TYPES = (tuple, list, dict)


def state_problems(name: str, expected: Any, observed: Any) -> list[str]:
    """One problem per differing part of the end state ``name``; a row diff spans several lines."""
    if isinstance(expected, dict) and isinstance(observed, dict):
        return [
            _differs(f"{name} end state differs at {key}", expected.get(key), observed.get(key))
            for key in sorted(set(expected) | set(observed), key=str)
            if expected.get(key) != observed.get(key)
        ]
    return [_differs(f"{name} end state differs", expected, observed)]


def _differs(head: str, expected: Any, observed: Any) -> str:
    if _rows(expected) and _rows(observed):
        return _row_diff(head, expected, observed)
    return f"{head}: {_short(observed)} (expected {_short(expected)})"


def _rows(value: Any) -> bool:
    """A list of rows (tuples, lists or dicts), as a query returns; an empty list is one too."""
    return isinstance(value, (list, tuple)) and all(isinstance(row, _ROW_TYPES) for row in value)


def _row_diff(head: str, expected: list[Any], observed: list[Any]) -> str:
    want, got = _multiset(expected), _multiset(observed)
    shown = {**{k: r for k, r in _keyed(expected)}, **{k: r for k, r in _keyed(observed)}}
    lines = []
    extra = missing = 0
    for key in got:  # in the scenario's row order, then the clean run's
        if got[key] > want[key]:
            extra += got[key] - want[key]
            lines.append(_line("+", shown[key], got[key] - want[key], got[key], want[key]))
    for key in want:
        if want[key] > got[key]:
            missing += want[key] - got[key]
            lines.append(_line("-", shown[key], want[key] - got[key], got[key], want[key]))
    if not lines:
        return f"{head}: the same rows in another order"
    inline = ", ".join(lines)
    if len(lines) <= MAX_INLINE and len(inline) <= MAX_INLINE_WIDTH:
        return f"{head}: {inline}"
    counts = [f"{n} {what} row{'s' if n != 1 else ''}" for n, what in ((extra, "extra"), (missing, "missing")) if n]
    more = len(lines) - MAX_ROWS
    body = [f"  {line}" for line in lines[:MAX_ROWS]] + ([f"  and {more} more"] if more > 0 else [])
    return "\n".join([f"{head}: {', '.join(counts)}", *body])


def _line(sign: str, row: Any, times: int, got: int, want: int) -> str:
    text = f"{sign} {_short(row)}"
    if times > 1:
        text += f" ×{times}"
    if got and want:  # the row is there, just not as often as it should be
        text += f" ({got} rows, expected {want})"
    return text


def _keyed(rows: list[Any]) -> list[tuple[Any, Any]]:
    return [(_hashable(row), row) for row in rows]


def _multiset(rows: list[Any]) -> Counter[Any]:
    return Counter(key for key, _row in _keyed(rows))


def _hashable(value: Any) -> Any:
    if isinstance(value, dict):
        return ("dict", tuple(sorted(((str(k), _hashable(v)) for k, v in value.items()))))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_hashable(v) for v in value))
    try:
        hash(value)
    except TypeError:
        return ("repr", repr(value))
    return value


def _short(value: Any, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
