"""The verification harness: run a job under failure and compare with one clean run.

The harness runs the job once, alone, to completion (the baseline), then each scenario from a
fresh ``setup``; every scenario must end with the same effects (counted per kind and target)
and the same end state as the baseline:

* ``concurrent`` - two runs at once, both held at their first event until both got there;
* ``overlap`` - run B runs while run A is held, at each event of a clean run in turn;
* ``kill`` - SIGKILL at each point of a clean run, then a recovery run;
* ``retry`` - a failure injected at each point, then a retry;
* ``replay`` - the same work twice in a row: the second run must change nothing;
* ``lease_expiry`` - A is held past ``lease_ttl`` at each event of a clean run in turn, B takes
  over and finishes, A resumes.

A kill or failure after an effect comes once the far end has it and before the job hears back,
the moment that breaks jobs which are not idempotent; a pause comes before the effect. Each
answer is "yes", "no" or "not tested" (the runs never got into the situation the question is
about); ``verify()`` fails on "not tested" too unless told to allow it. How runs are driven:
:mod:`.runs`; points: :mod:`.points`; a scenario over many points: :mod:`.sweep`.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import points as point_sets
from .http_sink import HttpSink
from .ledger import TraceItem
from .recorders import Recorder
from .report import (
    NOT_TESTED,
    QUESTIONS,
    FiveQuestionsError,
    Observation,
    ScenarioReport,
    SuiteReport,
    compare,
    judge,
)
from .runs import FIRST, SLOTS, Point, RunEnv, _Plan, _Runner, _Scenario
from .smtp_sink import EmailSink
from .sweep import sweep

__all__ = ["SCENARIOS", "Harness", "HarnessError", "Point", "RunEnv"]

SCENARIOS = tuple(QUESTIONS)

PointSpec = int | str
AllowUntested = bool | Collection[str]
#: what a paused scenario's runs say once they are over: (notes, why it is not tested or None)
_Verdict = Callable[[], "tuple[list[str], str | None]"]


#: the least time run B gets to take over from a paused run A in lease_expiry
_MIN_TAKEOVER_WAIT = 5.0


@dataclass(frozen=True)
class _CleanRun:
    """The baseline: what one run alone did, its events, and how long it took."""

    observation: Observation
    trace: list[TraceItem]
    seconds: float


class HarnessError(RuntimeError):
    """The harness could not establish a baseline (the job fails or does nothing when run alone)."""


class Harness:
    """Verify a job answers the five questions; see the module docstring for the scenarios.

    ``job(work, env)`` is called in a child process for each run. ``setup(env)`` prepares a
    fresh store in ``env.workdir`` before each scenario (and must reset any shared server state
    the job uses, or the job must prefix it with ``env.namespace``). ``observe`` lists the
    recorders; by default an SMTP and an HTTP sink, reachable from the job through
    ``env.smtp_host/env.smtp_port`` and ``env.http_url``. Add a :class:`DbState` to compare end
    states. ``lease_ttl`` is the TTL the job uses for its leases: the harness waits that long
    before a recovery run and holds a runner past it in ``lease_expiry``.

    ``points`` chooses where ``kill`` and ``retry`` interrupt a run; ``overlap`` and
    ``lease_expiry`` hold run A at every event of the clean run, or at ``pause_at`` (one point
    or a list). ``points="random"`` tries ``samples`` events chosen by ``seed`` (a fresh one,
    shown in the report, if not given) in all four. ``allow_untested`` (True, or scenario
    names) lets ``verify()`` accept "not tested" answers.
    """

    def __init__(
        self,
        job: Callable[[Any, RunEnv], Any],
        work: Any,
        *,
        observe: Sequence[Recorder] | None = None,
        setup: Callable[[RunEnv], Any] | None = None,
        lease_ttl: float | None = None,
        points: str | Sequence[PointSpec] = "effects",
        pause_at: PointSpec | Sequence[PointSpec] | None = None,
        samples: int = 8,
        seed: int | None = None,
        allow_untested: AllowUntested = False,
        run_timeout: float = 30.0,
        recover_after: float | None = None,
        retry_delay: float = 0.0,
        rendezvous_timeout: float = 5.0,
        overlap_grace: float = 1.0,
        pause_factor: float = 2.0,
        start_method: str | None = None,
        basedir: str | os.PathLike[str] | None = None,
    ) -> None:
        if isinstance(points, str) and points not in point_sets.POINT_SETS:
            raise ValueError(f"points must be one of {', '.join(point_sets.POINT_SETS)} or a list, not {points!r}")
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        self.job = job
        self.work = work
        self.recorders: list[Recorder] = list(observe) if observe is not None else [EmailSink(), HttpSink()]
        self.setup = setup
        self.lease_ttl = lease_ttl
        self.points = points if isinstance(points, str) else [point_sets.explicit(p) for p in points]
        specs = [] if pause_at is None else [pause_at] if isinstance(pause_at, (int, str)) else list(pause_at)
        self.pause_at = [point_sets.explicit(p, effect_word="before") for p in specs] or None
        self.samples = samples
        self.seed = seed if seed is not None or points != "random" else random.SystemRandom().randrange(10**9)
        self.allow_untested = allow_untested
        self.run_timeout = run_timeout
        default_recover = lease_ttl * 1.2 + 0.05 if lease_ttl else 0.0
        self.recover_after = default_recover if recover_after is None else recover_after
        self.retry_delay = retry_delay
        self.rendezvous_timeout = rendezvous_timeout
        self.overlap_grace = overlap_grace
        self.pause_factor = pause_factor
        methods = multiprocessing.get_all_start_methods()
        self.start_method = start_method or ("fork" if "fork" in methods else "spawn")
        self._own_basedir = basedir is None
        self.basedir = Path(basedir) if basedir is not None else Path(tempfile.mkdtemp(prefix="jobcheck-harness-"))
        self.basedir.mkdir(parents=True, exist_ok=True)
        self._counter = 0
        self._baseline: _CleanRun | None = None
        self.reports: list[ScenarioReport] = []
        for rec in self.recorders:
            rec.start(SLOTS)

    # -- lifecycle

    def close(self) -> None:
        for rec in self.recorders:
            rec.close()
        if self._own_basedir:
            shutil.rmtree(self.basedir, ignore_errors=True)

    def __enter__(self) -> Harness:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _scenario(self, name: str) -> Iterator[_Scenario]:
        sc = _Scenario(self, name)
        for rec in self.recorders:
            rec.prepare(sc.env("setup", 0))
        if self.setup is not None:
            self.setup(sc.env("setup", 0))
        for rec in self.recorders:
            rec.bind(sc)
        try:
            yield sc
        finally:
            sc.close()
            for rec in self.recorders:
                rec.bind(None)

    # -- the clean run everything is compared with

    def baseline(self) -> Observation:
        if self._baseline is None:
            with self._scenario("baseline") as sc:
                started = time.monotonic()
                run = sc.start("A")
                sc.wait(run)
                seconds = time.monotonic() - started
                if run.outcome.status != "ok":
                    raise HarnessError(f"the job fails when run alone: {run.outcome}\n{run.outcome.traceback or ''}")
                obs = sc.observe()
                trace = sc.trace(run)
            if not obs.counts and not any(obs.state.values()):
                raise HarnessError("one clean run made no observable effect: nothing to verify (check the recorders)")
            self._baseline = _CleanRun(obs, trace, seconds)
        return self._baseline.observation

    def _clean_run(self) -> _CleanRun:
        self.baseline()
        assert self._baseline is not None
        return self._baseline

    def _trace(self) -> list[TraceItem]:
        return self._clean_run().trace

    def _chosen(self, scenario: str, named: str, effect_word: str) -> list[Point]:
        """``named`` points of the clean run, or ``samples`` of them if points are random."""
        if self.points == "random":
            every = point_sets.from_trace(self._trace(), effect_word=effect_word)
            return point_sets.sample(every, self.samples, f"{self.seed}:{scenario}")
        return point_sets.from_trace(self._trace(), named, effect_word=effect_word)

    def crash_points(self, scenario: str = "kill") -> list[Point]:
        """The points where ``kill`` and ``retry`` interrupt a run, from the clean run's trace."""
        if isinstance(self.points, list):
            return list(self.points)
        return self._chosen(scenario, self.points, "after")

    def pause_points(self, scenario: str = "overlap") -> list[Point]:
        """The points where ``overlap`` and ``lease_expiry`` hold run A: every event of a clean run."""
        if self.pause_at is not None:
            return list(self.pause_at)
        return self._chosen(scenario, "all", "before")

    # -- scenarios

    def run(self, scenario: str) -> ScenarioReport:
        """Run one scenario and return its report (no assertion)."""
        if scenario not in SCENARIOS:
            raise ValueError(f"unknown scenario {scenario!r}; choose from {', '.join(SCENARIOS)}")
        expected = self.baseline()
        report = getattr(self, f"_run_{scenario}")(expected)
        self.reports.append(report)
        return report

    def run_all(self, scenarios: Sequence[str] | None = None, *, allow_untested: AllowUntested = False) -> SuiteReport:
        names = list(scenarios or SCENARIOS)
        reports = {name: self.run(name) for name in names}
        allowed = _allowed(self.allow_untested, names) | _allowed(allow_untested, names)
        return SuiteReport(reports, self.baseline(), allowed)

    def verify(self, scenarios: Sequence[str] | None = None, *, allow_untested: AllowUntested = False) -> SuiteReport:
        """Run the scenarios; raise :class:`FiveQuestionsError` (an AssertionError) if any fails,
        or is not tested and not allowed to be (here or on the harness)."""
        suite = self.run_all(scenarios, allow_untested=allow_untested)
        if not suite.accepted:
            raise FiveQuestionsError(suite)
        return suite

    def _report(self, name: str, expected: Observation, sc: _Scenario, *, observed: Observation | None = None,
                problems: list[str] | None = None, notes: list[str] | None = None, variant: str | None = None,
                untested: str | None = None) -> ScenarioReport:
        observed = observed or sc.observe()
        problems = compare(expected, observed) if problems is None else problems
        runs = [r.outcome for r in sc.runners if r.outcome is not None]
        return ScenarioReport(name, judge(problems, untested), problems, observed, expected, runs, notes or [],
                              variant, untested=untested)

    def _run_concurrent(self, expected: Observation) -> ScenarioReport:
        with self._scenario("concurrent") as sc:
            a = sc.start("A", _Plan(pause_at=FIRST), go=False)
            b = sc.start("B", _Plan(pause_at=FIRST), go=False)
            sc.go(a, b)
            # Both runs get as far as their first event (past any check they make) before
            # either may act: the interleaving that breaks check-then-act.
            met = sc.wait_until(lambda: all(r.held.is_set() or not r.alive for r in (a, b)), self.rendezvous_timeout)
            late = [r.label for r in (a, b) if not r.held.is_set() and r.alive]
            a.release.set()
            b.release.set()
            sc.wait(a, b)
            untested = None
            if not met:
                who = f"run {late[0]} did not reach its" if len(late) == 1 else "runs A and B did not reach their"
                untested = (f"{who} first event within {self.rendezvous_timeout}s (waiting for the other?):"
                            " the runs never stood side by side")
            else:
                broken = [r for r in (a, b) if r.paused_at is None and r.outcome.status != "ok"]
                if broken:
                    untested = f"{broken[0].outcome} before its first event"
            return self._report("concurrent", expected, sc, untested=untested)

    def _run_overlap(self, expected: Observation) -> ScenarioReport:
        return self._sweep("overlap", expected, self.pause_points("overlap"), self._overlap_at, "before",
                           random_points=self.pause_at is None)

    def _run_lease_expiry(self, expected: Observation) -> ScenarioReport:
        if not self.lease_ttl:
            return ScenarioReport("lease_expiry", NOT_TESTED, expected=expected,
                                  untested="pass lease_ttl= (the TTL of the job's lease) to hold a runner past it")
        return self._sweep("lease_expiry", expected, self.pause_points("lease_expiry"), self._lease_expiry_at,
                           "before", random_points=self.pause_at is None)

    def _run_kill(self, expected: Observation) -> ScenarioReport:
        return self._sweep("kill", expected, self.crash_points("kill"), self._kill_at, "after")

    def _run_retry(self, expected: Observation) -> ScenarioReport:
        return self._sweep("retry", expected, self.crash_points("retry"), self._fail_at, "after")

    def _sweep(self, name: str, expected: Observation, points: list[Point],
               attempt: Callable[[Observation, Point], tuple[int | None, ScenarioReport]], effect_word: str,
               *, random_points: bool = True) -> ScenarioReport:
        population = point_sets.from_trace(self._trace(), effect_word=effect_word)
        seed = self.seed if random_points and self.points == "random" else None
        return sweep(name, expected, points, lambda point: attempt(expected, point), population=population,
                     seed=seed, lead_with_variant=name in ("kill", "retry"))

    def _run_replay(self, expected: Observation) -> ScenarioReport:
        with self._scenario("replay") as sc:
            first = sc.start("A")
            sc.wait(first)
            once = sc.observe()
            second = sc.start("A", attempt=2)
            sc.wait(second)
            twice = sc.observe()
            problems = [f"first run: {p}" for p in compare(expected, once)] + compare(once, twice)
            return self._report("replay", expected, sc, observed=twice, problems=problems)

    # -- one point of a sweep: (the index of the event the point was reached at, the part)

    def _kill_at(self, expected: Observation, point: Point) -> tuple[int | None, ScenarioReport]:
        return self._interrupted("kill", expected, _Plan(kill_at=point), f"killed {point}, then recovered",
                                 self.recover_after)

    def _fail_at(self, expected: Observation, point: Point) -> tuple[int | None, ScenarioReport]:
        return self._interrupted("retry", expected, _Plan(fail_at=point), f"failed {point}, then retried",
                                 self.retry_delay)

    def _interrupted(self, name: str, expected: Observation, plan: _Plan, variant: str,
                     delay: float) -> tuple[int | None, ScenarioReport]:
        with self._scenario(name) as sc:
            first = sc.start("A", plan)
            sc.wait(first)
            if first.fired_at is None:  # a second run now would be a replay, not a recovery
                point = plan.kill_at or plan.fail_at
                return None, self._report(name, expected, sc, variant=variant,
                                          untested=_never_reached(first, point))
            time.sleep(delay)
            second = sc.start("A", attempt=2)
            sc.wait(second)
            return first.fired_at, self._report(name, expected, sc, variant=variant)

    def _overlap_at(self, expected: Observation, point: Point) -> tuple[int | None, ScenarioReport]:
        return self._paused("overlap", expected, point, f"A was paused {point}", self._b_overlaps)

    def _lease_expiry_at(self, expected: Observation, point: Point) -> tuple[int | None, ScenarioReport]:
        return self._paused("lease_expiry", expected, point, f"A was paused {point} past its lease", self._b_takes_over)

    def _paused(self, name: str, expected: Observation, point: Point, variant: str,
                run_b: Callable[[_Scenario, _Runner], _Verdict]) -> tuple[int | None, ScenarioReport]:
        """Run A held at ``point`` while ``run_b`` runs B, then let A go on."""
        with self._scenario(name) as sc:
            a = sc.start("A", _Plan(pause_at=point))
            sc.wait_until(lambda: a.held.is_set() or not a.alive, self.run_timeout)
            if a.paused_at is None:  # it finished: a run B now would be a replay
                sc.wait(a)
                return None, self._report(name, expected, sc, variant=variant,
                                          untested=_never_reached(a, point))
            verdict = run_b(sc, a)
            a.release.set()
            sc.wait(*sc.runners)
            notes, untested = verdict()
            return a.paused_at, self._report(name, expected, sc, notes=notes, variant=variant, untested=untested)

    def _b_overlaps(self, sc: _Scenario, a: _Runner) -> _Verdict:
        b = sc.start("B")
        late = not sc.wait_until(lambda: not b.alive, self.overlap_grace)
        notes = [f"run B was still running {self.overlap_grace}s after it started (waiting for A?)"] if late else []
        return lambda: (notes, None)

    def _b_takes_over(self, sc: _Scenario, a: _Runner) -> _Verdict:
        assert self.lease_ttl
        time.sleep(self.lease_ttl * self.pause_factor)  # A's lease expires while it is held
        b = sc.start("B")
        # A clean run's time many times over: B is waiting for A (not tested), never mind how long.
        patience = min(self.run_timeout, max(_MIN_TAKEOVER_WAIT, 10 * self._clean_run().seconds))
        if not sc.wait_until(lambda: not b.alive, patience):
            why = (f"run B did not finish within {patience:.1f}s while A was held past lease_ttl={self.lease_ttl}s"
                   " (waiting for A? does the job's lease take env.lease_ttl?)")
            return lambda: ([], why)
        return lambda: ([], self._missed_takeover(sc, a, b))  # judged once A has finished too

    def _missed_takeover(self, sc: _Scenario, a: _Runner, b: _Runner) -> str | None:
        """Why B did not take over from A, judged from their traces; None if it did.

        B took over if it got as far as A had, or went its own way (an event A had not made
        there: the work A had done was not B's to redo). If its events are only a shorter
        start of A's, B stopped early - typically because it found A's lease still held -
        and left work to A that A then did: nothing was there to fence off.
        """
        held = a.paused_at or 0
        a_trace, b_trace = sc.trace(a), sc.trace(b)
        if len(b_trace) >= held or any(x.label != y.label for x, y in zip(b_trace, a_trace)):
            return None
        a_had_work_left = a_trace[held - 1].kind == "effect" or len(a_trace) > held
        if not a_had_work_left:
            return None
        return (f"run B stopped after {len(b_trace)} of the {held} events A had reached and left the rest to A"
                f" (did it find A's lease still held? the job's lease TTL must be lease_ttl={self.lease_ttl}s,"
                " env.lease_ttl)")


def _never_reached(runner: _Runner, point: Point | None) -> str:
    return f"the point {point} was never reached ({runner.outcome})"


def _allowed(spec: AllowUntested, names: Sequence[str]) -> frozenset[str]:
    if isinstance(spec, bool):
        return frozenset(names) if spec else frozenset()
    if isinstance(spec, str):
        return frozenset([spec])
    return frozenset(spec)
