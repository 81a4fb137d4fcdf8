"""A scenario tried at many points: one answer for all of them, the smallest failing point first.

Each point gives a part report. The answer is "no" if any part is, else "not tested" if any
part could not be tested, else "yes". When a point fails, the points of the clean run before it
that were not tried (random points skip some, ``points="effects"`` skips checkpoints) are tried
from the first on, so the report leads with the earliest point known to fail: the simplest
interleaving to reproduce.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from .report import NO, NOT_TESTED, Observation, ScenarioReport, judge
from .runs import Point

__all__ = ["SHRINK_LIMIT", "Attempt", "sweep"]

#: an attempt at one point: the index of the event where the point was reached (None if it
#: never was) and the part report
Attempt = Callable[[Point], "tuple[int | None, ScenarioReport]"]

#: earlier points tried at most when shrinking, so a long run's sweep stays affordable
SHRINK_LIMIT = 16


@dataclass
class _Tried:
    index: int | None
    part: ScenarioReport


def sweep(name: str, expected: Observation, points: list[Point], attempt: Attempt, *, population: list[Point],
          seed: int | None = None, lead_with_variant: bool = True) -> ScenarioReport:
    """Try ``attempt`` at each of ``points``, shrink a failure over ``population`` (every event
    of the clean run), and sum the parts up. ``lead_with_variant`` words a failure
    "killed after effect #1, then recovered: <problems>", else "<problems>; when <variant>"."""
    if not points:
        return ScenarioReport(name, NOT_TESTED, expected=expected, seed=seed,
                              untested="the clean run reached no checkpoint or effect to interrupt it at")
    tried = [_Tried(*attempt(point)) for point in points]
    notes = _shrink(tried, population, attempt)
    tried.sort(key=lambda t: (t.index is None, t.index or 0))
    parts = [t.part for t in tried]
    failing = [p for p in parts if p.verdict == NO]
    untested = [p for p in parts if p.verdict == NOT_TESTED]
    problems: list[str] = []
    if failing:
        first = failing[0]
        if lead_with_variant:
            problems = [f"{first.variant}: {first.problems[0]}", *first.problems[1:]]
        else:
            problems = [*first.problems, f"when {first.variant}"]
        if len(failing) > 1:
            problems.append(f"and at {len(failing) - 1} more of {len(parts)} points")
    why = None
    if untested:
        why = f"{untested[0].variant}: {untested[0].untested}"
        if len(untested) > 1:
            why += f" (and at {len(untested) - 1} more of {len(parts)} points)"
    shown = (failing or untested or parts)[0]
    return ScenarioReport(name, judge(problems, why), problems, shown.observed, expected, shown.runs,
                          notes + _common_notes(parts), parts=parts, untested=why, seed=seed)


def _shrink(tried: list[_Tried], population: list[Point], attempt: Attempt) -> list[str]:
    """Try the untried points before the earliest failing one, first to last, until one fails."""
    failing = [t for t in tried if t.part.verdict == NO and t.index is not None]
    if not failing:
        return []
    earliest = min(failing, key=lambda t: t.index or 0)
    seen = {t.index for t in tried}
    candidates = [p for p in population if p.index is not None and p.index < (earliest.index or 0) and p.index not in seen]
    for point in candidates[:SHRINK_LIMIT]:
        found = _Tried(*attempt(point))
        tried.append(found)
        if found.part.verdict == NO:
            return [f"smallest failing point found by shrinking: {found.part.variant} (first found: {earliest.part.variant})"]
    if len(candidates) > SHRINK_LIMIT:
        return [f"shrinking tried the first {SHRINK_LIMIT} of {len(candidates)} earlier points"]
    return []


def _common_notes(parts: list[ScenarioReport]) -> list[str]:
    """Each distinct note of the parts once, with how many points it came up at."""
    seen = Counter(note for part in parts for note in dict.fromkeys(part.notes))
    if len(parts) == 1:
        return list(seen)
    return [f"{note} (at {n} of {len(parts)} points)" for note, n in seen.items()]
