"""The first thing of one kind a function does, itself or through the project's functions it
calls (a few calls deep), memoised for one run (JC302, JC303)."""

from __future__ import annotations

from typing import Callable

from ..analysis.summary import Event, FunctionSummary
from .context import ProjectView

DEPTH = 3


class Reach:
    """`own(fn, index, event)` says what one call does itself (None: nothing of the kind); `below`
    finds the first such call in a function or the functions it calls, with the chain of calls."""

    def __init__(self, project: ProjectView, own: Callable[[FunctionSummary, int, Event], object]) -> None:
        self.project = project
        self.own = own
        self._memo: dict[tuple[str, int], tuple | None] = {}

    def below(self, qualname: str, depth: int = DEPTH) -> tuple | None:
        """(what, chain of qualnames ending in the function that does it) or None."""
        key = (qualname, depth)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = None  # a cycle ends here
        fn = self.project.functions[qualname]
        found = None
        for i, ev in enumerate(fn.events):
            if ev.kind != "call":
                continue
            what = self.own(fn, i, ev)
            if what is not None:
                found = (what, (qualname,))
                break
            inner = next((hit for callee in self.project.callees(ev)
                          if depth > 1 and (hit := self.below(callee.qualname, depth - 1)) is not None), None)
            if inner is not None:
                found = (inner[0], (qualname, *inner[1]))
                break
        self._memo[key] = found
        return found
