"""Scenario reports: what happened, how many times, and the answer to the question.

A report line reads like the question it answers::

    can it run twice: no — 2 emails to a@example.com (expected 1)
    can it retry safely: yes — same effects and end state as one clean run (6 points)
    is a paused runner fenced off when its lease expires: not tested — pass lease_ttl= ...

"not tested" is an answer of its own: the runs could not put the job in the situation the
question is about (a point never reached, a second runner that never got going), so they are
evidence of nothing. It never counts as "yes".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import asdict, dataclass, field
from typing import Any

from .ledger import Effect, describe_effect
from .state_diff import state_problems

__all__ = [
    "NO",
    "NOT_TESTED",
    "QUESTIONS",
    "VERDICTS",
    "YES",
    "FiveQuestionsError",
    "Observation",
    "RunOutcome",
    "ScenarioReport",
    "SuiteReport",
    "compare",
]

YES, NO, NOT_TESTED = "yes", "no", "not tested"
VERDICTS = (YES, NO, NOT_TESTED)

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
    effects: list[Effect] = field(default_factory=list)  # in the order they happened

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


def compare(expected: Observation, observed: Observation) -> list[str]:
    """Problems, worded as counts: '2 emails to a@example.com (expected 1)'; an end state that
    differs lists its extra and missing rows on the lines after its first."""
    problems = []
    for kind, target in sorted(set(expected.counts) | set(observed.counts)):
        want, got = expected.counts[(kind, target)], observed.counts[(kind, target)]
        if want != got:
            problems.append(f"{describe_effect(kind, target, got)} (expected {want})")
    for name in sorted(set(expected.state) | set(observed.state)):
        if expected.state.get(name) != observed.state.get(name):
            problems.extend(state_problems(name, expected.state.get(name), observed.state.get(name)))
    return problems


def judge(problems: list[str], untested: str | None) -> str:
    """What went wrong is an answer even where the case was not reached; else no evidence is no "yes"."""
    if problems:
        return NO
    return NOT_TESTED if untested else YES


@dataclass
class ScenarioReport:
    """One scenario's answer: ``verdict`` is "yes", "no" or "not tested" (``untested`` says why)."""

    scenario: str
    verdict: str  # YES, NO or NOT_TESTED; True and False stand for YES and NO
    problems: list[str] = field(default_factory=list)
    observed: Observation | None = None
    expected: Observation | None = None
    runs: list[RunOutcome] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    variant: str | None = None  # e.g. "killed after effect 2 (email to a@example.com)"
    parts: list[ScenarioReport] = field(default_factory=list)  # one per pause/kill/fail point
    untested: str | None = None  # why the runs do not answer the question
    seed: int | None = None  # the seed that chose random points: pass it as seed= to re-run them

    def __post_init__(self) -> None:
        if isinstance(self.verdict, bool):
            self.verdict = YES if self.verdict else NO
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}, not {self.verdict!r}")

    @property
    def passed(self) -> bool:
        return self.verdict == YES

    @property
    def question(self) -> str:
        return QUESTIONS[self.scenario]

    @property
    def effects(self) -> list[Effect]:
        """The effects of the observed runs, in order (``kind``, ``target``, ``runner``, ``detail``)."""
        return [] if self.observed is None else list(self.observed.effects)

    def counts(self) -> dict[tuple[str, str], int]:
        """How many times each effect happened: {("email", "a@example.com"): 2, ...}."""
        return {} if self.observed is None else dict(sorted(self.observed.counts.items()))

    def count(self, kind: str, target: str | None = None) -> int:
        """How many ``kind`` effects happened (on ``target`` only, if given): ``count("webhook")``."""
        if self.observed is None:
            return 0
        return sum(n for (k, t), n in self.observed.counts.items() if k == kind and target in (None, t))

    def line(self) -> str:
        if self.verdict == NO:
            tail = "; ".join(p.split("\n", 1)[0] for p in self.problems)
        elif self.verdict == NOT_TESTED:
            tail = str(self.untested)
        else:
            tail = "same effects and end state as one clean run"
        sampling = self._sampling()
        if sampling and (self.verdict == YES or self.seed is not None):
            tail += f" ({sampling})"
        return f"{self.question}: {self.verdict} — {tail}" + "".join(f"; note: {n}" for n in self.notes)

    def _sampling(self) -> str:
        if not self.parts:
            return ""
        text = f"{len(self.parts)} point{'s' if len(self.parts) != 1 else ''}"
        return text if self.seed is None else f"{text}, random, seed {self.seed}"

    def details(self) -> str:
        lines = [self.line()]
        smallest = next((p for p in self.parts if p.verdict == NO), None)
        if smallest is not None:
            lines.append(f"  smallest failing point: {smallest.variant}")
        for part in self.parts or [self]:
            if part.variant:
                lines.append(f"  {part.variant}: {_STATUS[part.verdict]}")
            lines.extend(f"    {r}" for r in part.runs)
            lines.extend(f"    note: {n}" for n in part.notes if part is self or n not in self.notes)
            if part.untested and part is not self:
                lines.append(f"    not tested: {part.untested}")
            if part.observed is not None:
                lines.append(f"    observed: {part.observed.summary()}")
            for problem in part.problems:
                head, _, body = problem.partition("\n")
                if part is not self:
                    lines.append(f"    problem: {head}")
                lines.extend(f"    {row}" for row in body.splitlines())
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-serialisable data (for CI reports)."""
        return {
            "scenario": self.scenario,
            "question": self.question,
            "verdict": self.verdict,
            "passed": self.passed,
            "line": self.line(),
            "problems": list(self.problems),
            "untested": self.untested,
            "notes": list(self.notes),
            "variant": self.variant,
            "seed": self.seed,
            "counts": _counts_data(self.observed),
            "expected_counts": _counts_data(self.expected),
            "runs": [asdict(run) for run in self.runs],
            "parts": [part.to_dict() for part in self.parts],
        }

    __str__ = line


_STATUS = {YES: "ok", NO: "FAILED", NOT_TESTED: "not tested"}


def _counts_data(observation: Observation | None) -> list[dict[str, Any]]:
    if observation is None:
        return []
    return [{"kind": k, "target": t, "count": n} for (k, t), n in sorted(observation.counts.items())]


class FiveQuestionsError(AssertionError):
    """Raised by Harness.verify when a scenario fails or is not tested; the message lists the answers."""

    def __init__(self, suite: SuiteReport) -> None:
        self.suite = suite
        super().__init__(suite.failure_message())


@dataclass
class SuiteReport:
    """The answers of several scenarios. ``accepted`` when none is "no" and every "not tested"
    is one of ``allowed_untested``."""

    reports: dict[str, ScenarioReport]
    baseline: Observation
    allowed_untested: Collection[str] = frozenset()

    def __getitem__(self, scenario: str) -> ScenarioReport:
        return self.reports[scenario]

    @property
    def passed(self) -> bool:
        """Every answer is "yes"."""
        return all(r.passed for r in self.reports.values())

    @property
    def failed(self) -> list[str]:
        return [name for name, r in self.reports.items() if r.verdict == NO]

    @property
    def untested(self) -> list[str]:
        return [name for name, r in self.reports.items() if r.verdict == NOT_TESTED]

    @property
    def accepted(self) -> bool:
        return not self.failed and all(name in self.allowed_untested for name in self.untested)

    def answers(self) -> str:
        return "\n".join(r.line() for r in self.reports.values())

    def failure_message(self) -> str:
        head = f"jobcheck: {len(self.failed)} of {len(self.reports)} checks failed"
        refused = [name for name in self.untested if name not in self.allowed_untested]
        if self.untested:
            head += f", {len(self.untested)} not tested"
        if refused:
            head += f" (allow_untested={refused!r} accepts that)"
        head += f" (one clean run: {self.baseline.summary()})"
        return "\n".join([head, *(r.details() for r in self.reports.values())])

    def to_dict(self) -> dict[str, Any]:
        """The answers as JSON-serialisable data (for CI reports)."""
        return {
            "passed": self.passed,
            "accepted": self.accepted,
            "failed": self.failed,
            "untested": self.untested,
            "allowed_untested": sorted(self.allowed_untested),
            "baseline": {"counts": _counts_data(self.baseline), "summary": self.baseline.summary()},
            "scenarios": [report.to_dict() for report in self.reports.values()],
        }
