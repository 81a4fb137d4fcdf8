"""The verification harness: run a job under failure and compare with one clean run.

The harness runs the job once, alone, to completion (the baseline), then each scenario from a
fresh ``setup``; every scenario must end with the same effects (counted per kind and target)
and the same end state as the baseline:

* ``concurrent`` - two runs at once, both held at their first event until both got there;
* ``overlap`` - run B starts while run A is held mid-run, then A resumes;
* ``kill`` - SIGKILL at each point of a clean run, then a recovery run;
* ``retry`` - a failure injected at each point, then a retry;
* ``replay`` - the same work twice in a row: the second run must change nothing;
* ``lease_expiry`` - A is held past ``lease_ttl``, B takes over and finishes, A resumes.

A kill or failure after an effect comes once the far end has it and before the job hears back,
the moment that breaks jobs which are not idempotent. How runs are driven: :mod:`.runs`.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .http_sink import HttpSink
from .ledger import TraceItem
from .recorders import Recorder
from .report import (
    QUESTIONS,
    FiveQuestionsError,
    Observation,
    ScenarioReport,
    SuiteReport,
    compare,
)
from .runs import FIRST, SLOTS, Point, RunEnv, _Plan, _Scenario
from .smtp_sink import EmailSink

__all__ = ["Harness", "RunEnv", "Point", "HarnessError", "SCENARIOS"]

SCENARIOS = tuple(QUESTIONS)
_POINT_SETS = ("effects", "checkpoints", "all", "first")


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
    """

    def __init__(
        self,
        job: Callable[[Any, RunEnv], Any],
        work: Any,
        *,
        observe: Sequence[Recorder] | None = None,
        setup: Callable[[RunEnv], Any] | None = None,
        lease_ttl: float | None = None,
        points: str | Sequence[int | str] = "effects",
        pause_at: int | str | None = None,
        run_timeout: float = 30.0,
        recover_after: float | None = None,
        retry_delay: float = 0.0,
        rendezvous_timeout: float = 2.0,
        overlap_grace: float = 1.0,
        pause_factor: float = 2.0,
        start_method: str | None = None,
        basedir: str | os.PathLike[str] | None = None,
    ) -> None:
        if isinstance(points, str) and points not in _POINT_SETS:
            raise ValueError(f"points must be one of {', '.join(_POINT_SETS)} or a list, not {points!r}")
        self.job = job
        self.work = work
        self.recorders: list[Recorder] = list(observe) if observe is not None else [EmailSink(), HttpSink()]
        self.setup = setup
        self.lease_ttl = lease_ttl
        self.points = points
        self.pause_point = self._point(pause_at) if pause_at is not None else FIRST
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
        self._baseline: tuple[Observation, list[TraceItem]] | None = None
        self.reports: list[ScenarioReport] = []
        for rec in self.recorders:
            rec.start(SLOTS)

    # -- lifecycle

    def close(self) -> None:
        for rec in self.recorders:
            rec.close()
        if self._own_basedir:
            shutil.rmtree(self.basedir, ignore_errors=True)

    def __enter__(self) -> "Harness":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _scenario(self, name: str) -> Iterator[_Scenario]:
        sc = _Scenario(self, name)
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

    @staticmethod
    def _point(spec: int | str) -> Point:
        """An int is the n-th effect of the run, a string a checkpoint name."""
        if isinstance(spec, int):
            return Point(effect=spec)
        return Point(checkpoint=spec)

    # -- the clean run everything is compared with

    def baseline(self) -> Observation:
        if self._baseline is None:
            with self._scenario("baseline") as sc:
                run = sc.start("A")
                sc.wait(run)
                if run.outcome.status != "ok":
                    raise HarnessError(f"the job fails when run alone: {run.outcome}\n{run.outcome.traceback or ''}")
                obs = sc.observe()
                trace = [t for t in sc.ledger.trace if t.runner == "A"]
            if not obs.counts and not any(obs.state.values()):
                raise HarnessError("one clean run made no observable effect: nothing to verify (check the recorders)")
            self._baseline = (obs, trace)
        return self._baseline[0]

    def crash_points(self) -> list[Point]:
        """The points where ``kill`` and ``retry`` interrupt a run, from the clean run's trace."""
        self.baseline()
        trace = self._baseline[1]  # type: ignore[index]
        where = {"checkpoint": "at", "effect": "after"}

        def point(item: TraceItem) -> Point:
            return Point(index=item.index, label=f"{where[item.kind]} {item.label}")

        if self.points == "effects":
            # A job whose only effects are on its database: interrupt it at its checkpoints.
            return [point(t) for t in trace if t.kind == "effect"] or [point(t) for t in trace]
        if self.points == "checkpoints":
            return [point(t) for t in trace if t.kind == "checkpoint"]
        if self.points == "all":
            return [point(t) for t in trace]
        if self.points == "first":
            return [point(t) for t in trace if t.kind == "effect"][:1]
        return [self._point(p) for p in self.points]

    # -- scenarios

    def run(self, scenario: str) -> ScenarioReport:
        """Run one scenario and return its report (no assertion)."""
        if scenario not in SCENARIOS:
            raise ValueError(f"unknown scenario {scenario!r}; choose from {', '.join(SCENARIOS)}")
        expected = self.baseline()
        report = getattr(self, f"_run_{scenario}")(expected)
        self.reports.append(report)
        return report

    def run_all(self, scenarios: Sequence[str] | None = None) -> SuiteReport:
        names = list(scenarios or SCENARIOS)
        reports = {name: self.run(name) for name in names}
        return SuiteReport(reports, self.baseline())

    def verify(self, scenarios: Sequence[str] | None = None) -> SuiteReport:
        """Run the scenarios; raise :class:`FiveQuestionsError` (an AssertionError) if any fails."""
        suite = self.run_all(scenarios)
        if not suite.passed:
            raise FiveQuestionsError(suite)
        return suite

    def _report(self, name: str, expected: Observation, sc: _Scenario, observed: Observation | None = None,
                problems: list[str] | None = None, notes: list[str] | None = None, variant: str | None = None) -> ScenarioReport:
        observed = observed or sc.observe()
        problems = compare(expected, observed) if problems is None else problems
        runs = [r.outcome for r in sc.runners if r.outcome is not None]
        return ScenarioReport(name, not problems, problems, observed, expected, runs, notes or [], variant)

    def _run_concurrent(self, expected: Observation) -> ScenarioReport:
        with self._scenario("concurrent") as sc:
            a = sc.start("A", _Plan(pause_at=FIRST), go=False)
            b = sc.start("B", _Plan(pause_at=FIRST), go=False)
            sc.go(a, b)
            # Both runs get as far as their first event (past any check they make) before
            # either may act: the interleaving that breaks check-then-act.
            met = sc.wait_until(lambda: all(r.held.is_set() or not r.alive for r in (a, b)), self.rendezvous_timeout)
            a.release.set()
            b.release.set()
            sc.wait(a, b)
            notes = [] if met else [f"the runs did not both reach their first event within {self.rendezvous_timeout}s"]
            return self._report("concurrent", expected, sc, notes=notes)

    def _run_overlap(self, expected: Observation) -> ScenarioReport:
        with self._scenario("overlap") as sc:
            a = sc.start("A", _Plan(pause_at=self.pause_point))
            notes = []
            if not sc.wait_until(lambda: a.held.is_set() or not a.alive, self.run_timeout) or not a.held.is_set():
                notes.append(f"run A never reached the pause point ({self.pause_point})")
            b = sc.start("B")
            if not sc.wait_until(lambda: not b.alive, self.overlap_grace):
                notes.append(f"run B was still running {self.overlap_grace}s after it started (waiting for A?)")
            a.release.set()
            sc.wait(a, b)
            return self._report("overlap", expected, sc, notes=notes)

    def _run_lease_expiry(self, expected: Observation) -> ScenarioReport:
        if not self.lease_ttl:
            return ScenarioReport("lease_expiry", True, skipped="pass lease_ttl= to hold a runner past its lease")
        with self._scenario("lease_expiry") as sc:
            a = sc.start("A", _Plan(pause_at=self.pause_point))
            notes = []
            if not sc.wait_until(lambda: a.held.is_set() or not a.alive, self.run_timeout) or not a.held.is_set():
                notes.append(f"run A never reached the pause point ({self.pause_point})")
            time.sleep(self.lease_ttl * self.pause_factor)  # A's lease expires while it is held
            b = sc.start("B")
            if not sc.wait_until(lambda: not b.alive, self.run_timeout):
                notes.append("run B could not finish while A was paused past its lease: is the job's lease TTL the lease_ttl given?")
            a.release.set()
            sc.wait(a, b)
            return self._report("lease_expiry", expected, sc, notes=notes)

    def _run_interrupted(self, name: str, expected: Observation, make_plan: Callable[[Point], _Plan], delay: float) -> ScenarioReport:
        points = self.crash_points()
        if not points:
            return ScenarioReport(name, True, skipped="the clean run reached no checkpoint or effect to interrupt it at")
        parts = []
        for point in points:
            with self._scenario(name) as sc:
                first = sc.start("A", make_plan(point))
                sc.wait(first)
                notes = [] if first.point else [f"run A finished without reaching {point}"]
                time.sleep(delay)
                second = sc.start("A", attempt=2)
                sc.wait(second)
                verb = "killed" if name == "kill" else "failed"
                then = "recovered" if name == "kill" else "retried"
                variant = f"{verb} {point.label or point}, then {then}"
                parts.append(self._report(name, expected, sc, notes=notes, variant=variant))
        failing = [p for p in parts if not p.passed]
        problems = [f"{p.variant}: {'; '.join(p.problems)}" for p in failing[:2]]
        if len(failing) > 2:
            problems.append(f"and at {len(failing) - 2} more of {len(parts)} points")
        observed = next((p.observed for p in parts if not p.passed), parts[-1].observed if parts else None)
        return ScenarioReport(name, not problems, problems, observed, expected, parts=parts)

    def _run_kill(self, expected: Observation) -> ScenarioReport:
        return self._run_interrupted("kill", expected, lambda p: _Plan(kill_at=p), self.recover_after)

    def _run_retry(self, expected: Observation) -> ScenarioReport:
        return self._run_interrupted("retry", expected, lambda p: _Plan(fail_at=p), self.retry_delay)

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
