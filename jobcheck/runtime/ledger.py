"""The effect ledger: what a scenario's runs did to the outside world, counted.

Recorders (SMTP and HTTP sinks, the in-job hook) write here from any thread of the harness
process; effects made in child processes arrive through their control pipe. An effect is a
(kind, target) pair - ("email", "a@example.com"), ("http", "POST /v1/charges"),
("charge", "cus_1") - and the ledger counts how many times each happened. Effects carrying a
key the far end has seen before (an Idempotency-Key, a Message-ID when the sink deduplicates)
are *absorbed*: counted separately, not as a new effect, as a real provider would.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Effect", "TraceItem", "EffectLedger", "describe_effect"]


@dataclass(frozen=True)
class Effect:
    seq: int
    kind: str
    target: str
    runner: str
    detail: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class TraceItem:
    """One event of a run, in order: a checkpoint or an effect (possibly absorbed)."""

    runner: str
    index: int  # 1-based position among that runner's events
    kind: str  # "checkpoint" or "effect"
    label: str  # checkpoint name, or the effect described


def describe_effect(kind: str, target: str, count: int = 1) -> str:
    """'2 emails to a@example.com', '1 × POST /v1/charges', '2 × charge cus_1'."""
    if kind == "email":
        return f"{count} email{'s' if count != 1 else ''} to {target}"
    if kind == "http":
        return f"{count} × {target}"
    return f"{count} × {kind} {target}"


def describe_targets(kind: str, targets: list[str]) -> str:
    if kind == "email":
        return f"email to {', '.join(targets)}"
    if kind == "http":
        return ", ".join(targets)
    return f"{kind} {', '.join(targets)}"


class EffectLedger:
    """Thread-safe record of one scenario's effects and events."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._effects: list[Effect] = []
        self._by_key: dict[Any, list[Effect]] = {}
        self.absorbed: Counter[tuple[str, str]] = Counter()
        self.trace: list[TraceItem] = []

    def record(
        self, kind: str, targets: list[str], runner: str, detail: dict[str, Any] | None = None, key: Any = None
    ) -> tuple[list[Effect], bool]:
        """Record one effect on each target; returns (effects, new). With a ``key`` already seen,
        returns the original effects and new=False (absorbed by the far end)."""
        with self._lock:
            if key is not None and key in self._by_key:
                for t in targets:
                    self.absorbed[(kind, t)] += 1
                return self._by_key[key], False
            made = []
            for t in targets:
                effect = Effect(len(self._effects) + 1, kind, t, runner, dict(detail or {}))
                self._effects.append(effect)
                made.append(effect)
            if key is not None:
                self._by_key[key] = made
            return made, True

    def note(self, item: TraceItem) -> None:
        with self._lock:
            self.trace.append(item)

    @property
    def effects(self) -> list[Effect]:
        with self._lock:
            return list(self._effects)

    def counts(self) -> Counter[tuple[str, str]]:
        with self._lock:
            return Counter((e.kind, e.target) for e in self._effects)
