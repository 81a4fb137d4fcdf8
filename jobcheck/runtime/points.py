"""Where the harness pauses, kills or fails a run, chosen from the events of the clean run.

A clean run's trace lists its checkpoints and effects in order; each is a point. A pause holds
a run *before* an effect goes out, a kill or failure comes right *after* it (once the far end
has it, before the job hears back), so the same event is labelled by what is done there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .ledger import TraceItem
from .runs import Point

__all__ = ["POINT_SETS", "explicit", "from_trace", "sample"]

#: named sets of points (``points=``); a list names points one by one
POINT_SETS = ("effects", "checkpoints", "all", "first", "random")


def explicit(spec: int | str, *, effect_word: str = "after") -> Point:
    """An int is the n-th effect of the run, a string a checkpoint name."""
    if isinstance(spec, bool) or not isinstance(spec, (int, str)):
        raise TypeError(f"a point is an effect number or a checkpoint name, not {spec!r}")
    if isinstance(spec, int):
        return Point(effect=spec, label=f"{effect_word} effect #{spec}")
    return Point(checkpoint=spec)


def from_trace(trace: Sequence[TraceItem], name: str = "all", *, effect_word: str) -> list[Point]:
    """The events of ``trace`` in the named set (not "random") as points; an effect's label
    starts with ``effect_word``."""
    effects = [item for item in trace if item.kind == "effect"]
    if name == "effects":
        # A job whose only effects are on its database: interrupt it at its checkpoints.
        chosen = effects or list(trace)
    elif name == "checkpoints":
        chosen = [item for item in trace if item.kind == "checkpoint"]
    elif name == "first":
        chosen = effects[:1]
    else:
        chosen = list(trace)
    words = {"checkpoint": "at", "effect": effect_word}
    return [Point(index=item.index, label=f"{words[item.kind]} {item.label}") for item in chosen]


def sample(points: list[Point], samples: int, seed: int | str) -> list[Point]:
    """``samples`` of ``points`` chosen by ``seed`` (all of them if there are no more), in order."""
    if samples >= len(points):
        return list(points)
    chosen = random.Random(seed).sample(range(len(points)), samples)
    return [points[i] for i in sorted(chosen)]
