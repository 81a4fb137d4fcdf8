"""Scenario reports: what happened, how many times, and the answer to the question.

A report line reads like the question it answers::

    can it run twice: no — 2 emails to a@example.com (expected 1)
    can it retry safely: yes — same effects and end state as one clean run (6 points)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .ledger import describe_effect

__all__ = ["Observation", "RunOutcome", "ScenarioReport", "SuiteReport", "FiveQuestionsError", "QUESTIONS", "compare"]

#: scenario -> the question its evidence answers
QUESTIONS = {
    "concurrent": "can it run twice",
    "overlap": "can it overlap itself",
    "kill": "can it die mid-run and recover",
    "retry": "can it retry safely",
    "replay": "is it idempotent",
    "lease_expiry": "is a paused runner fenced off when its lease expires",
}


@dataclass
class Observation:
    """Effects and end state after a scenario's runs."""

    counts: Counter[tuple[str, str]]
    state: dict[str, Any]
    absorbed: Counter[tuple[str, str]] = field(default_factory=Counter)

    def summary(self) -> str:
        parts = [describe_effect(k, t, n) for (k, t), n in sorted(self.counts.items())]
        return ", ".join(parts) if parts else "no effects"


@dataclass
class RunOutcome:
    runner: str  # "A", "B", "A#2" (second attempt in slot A)
    status: str  # "ok", "error", "killed", "timeout"
    error: str | None = None  # "ExceptionType: message" for errors
    traceback: str | None = None
    point: str | None = None  # where it was killed / failed / paused
    result: str | None = None  # repr of what the job returned

    def __str__(self) -> str:
        words = [f"run {self.runner}:"]
        if self.status == "killed" or (self.point and self.point.startswith("failed")):
            words.append(str(self.point))
        else:
            words.append(self.status)
            if self.point:
                words.append(f"({self.point})")
        if self.error:
            words.append(f"→ {self.error}")
        elif self.result is not None:
            words.append(f"→ returned {self.result}")
        return " ".join(words)


def _short(value: Any, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _state_diff(name: str, expected: Any, observed: Any) -> list[str]:
    if isinstance(expected, dict) and isinstance(observed, dict):
        out = []
        for key in sorted(set(expected) | set(observed), key=str):
            if expected.get(key) != observed.get(key):
                out.append(f"{name} end state differs at {key}: {_short(observed.get(key))} (expected {_short(expected.get(key))})")
        return out
    return [f"{name} end state differs: {_short(observed)} (expected {_short(expected)})"]


def compare(expected: Observation, observed: Observation) -> list[str]:
    """Problems, worded as counts: '2 emails to a@example.com (expected 1)'."""
    problems = []
    for kind, target in sorted(set(expected.counts) | set(observed.counts)):
        want, got = expected.counts[(kind, target)], observed.counts[(kind, target)]
        if want != got:
            problems.append(f"{describe_effect(kind, target, got)} (expected {want})")
    for name in sorted(set(expected.state) | set(observed.state)):
        if expected.state.get(name) != observed.state.get(name):
            problems.extend(_state_diff(name, expected.state.get(name), observed.state.get(name)))
    return problems


@dataclass
class ScenarioReport:
    scenario: str
    passed: bool
    problems: list[str] = field(default_factory=list)
    observed: Observation | None = None
    expected: Observation | None = None
    runs: list[RunOutcome] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    variant: str | None = None  # e.g. "killed after effect 2 (email to a@example.com)"
    parts: list["ScenarioReport"] = field(default_factory=list)  # one per kill/fail point
    skipped: str | None = None

    @property
    def question(self) -> str:
        return QUESTIONS[self.scenario]

    def counts(self) -> dict[tuple[str, str], int]:
        """How many times each effect happened: {("email", "a@example.com"): 2, ...}."""
        return {} if self.observed is None else dict(sorted(self.observed.counts.items()))

    def line(self) -> str:
        if self.skipped:
            return f"{self.question}: not checked — {self.skipped}"
        if self.passed:
            tail = "same effects and end state as one clean run"
            if self.parts:
                tail += f" ({len(self.parts)} point{'s' if len(self.parts) != 1 else ''})"
            return f"{self.question}: yes — {tail}"
        return f"{self.question}: no — {'; '.join(self.problems)}"

    def details(self) -> str:
        lines = [self.line()]
        for part in self.parts or [self]:
            if part.variant:
                lines.append(f"  {part.variant}: {'ok' if part.passed else 'FAILED'}")
            lines.extend(f"    {r}" for r in part.runs)
            lines.extend(f"    note: {n}" for n in part.notes)
            if part.observed is not None:
                lines.append(f"    observed: {part.observed.summary()}")
        return "\n".join(lines)

    __str__ = line


class FiveQuestionsError(AssertionError):
    """Raised by Harness.verify when a scenario fails; the message lists the answers."""

    def __init__(self, suite: "SuiteReport") -> None:
        self.suite = suite
        super().__init__(suite.failure_message())


@dataclass
class SuiteReport:
    reports: dict[str, ScenarioReport]
    baseline: Observation

    def __getitem__(self, scenario: str) -> ScenarioReport:
        return self.reports[scenario]

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.reports.values())

    @property
    def failed(self) -> list[str]:
        return [name for name, r in self.reports.items() if not r.passed]

    def answers(self) -> str:
        return "\n".join(r.line() for r in self.reports.values())

    def failure_message(self) -> str:
        bad = [r for r in self.reports.values() if not r.passed]
        head = f"jobcheck: {len(bad)} of {len(self.reports)} checks failed (one clean run: {self.baseline.summary()})"
        return "\n".join([head, *(r.details() for r in self.reports.values())])
