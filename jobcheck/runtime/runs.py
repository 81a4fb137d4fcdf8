"""One scenario's runs: child processes driven over a control pipe, as the harness sees them.

Each run of the job is a child process (fork by default, so closures work; ``spawn`` needs a
picklable job). The child waits for "start", runs ``job(work, env)``, and sends its result or
error. At every ``checkpoint()`` / ``record_effect()`` it asks the harness over the pipe what to
do next; the SMTP/HTTP sinks ask the same question from the harness process, identifying the
run by the port it connected to. The answer is to go on, fail, or nothing at all: the run is
SIGKILLed while it waits (or held until the scenario releases it).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
import uuid
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import control
from .ledger import EffectLedger, TraceItem, describe_targets
from .recorders import FAIL, GO, KILL, DbState, Recorder
from .report import Observation, RunOutcome

if TYPE_CHECKING:  # pragma: no cover
    from .harness import Harness

__all__ = ["FIRST", "SLOTS", "Point", "RunEnv"]

SLOTS = ["A", "B"]  # at most two runs overlap in any scenario


@dataclass(frozen=True)
class RunEnv:
    """What a run of the job gets besides its work unit."""

    scenario: str
    runner: str  # "A" or "B"
    attempt: int  # 1, or 2 for a recovery / retry / replay run
    workdir: Path  # fresh per scenario, shared by its runs
    namespace: str  # unique per scenario: prefix lease resources on shared servers with it
    lease_ttl: float | None
    endpoints: dict[str, Any] = field(default_factory=dict)

    def path(self, *parts: str) -> Path:
        return self.workdir.joinpath(*parts)

    @property
    def smtp_host(self) -> str:
        return self.endpoints["smtp"][0]

    @property
    def smtp_port(self) -> int:
        return self.endpoints["smtp"][1]

    @property
    def http_url(self) -> str:
        return self.endpoints["http"]

    def hook(self, kind: str) -> Callable[..., None]:
        """A plain callable recording one ``kind`` effect per call: ``hook(target, key=None)``."""
        return partial(control.record_effect, kind)


@dataclass(frozen=True)
class Point:
    """Where to pause, kill or fail a run: its ``index``-th event (checkpoints and effects
    counted together), its ``effect``-th effect, or a named ``checkpoint`` (first reached)."""

    index: int | None = None
    effect: int | None = None
    checkpoint: str | None = None
    label: str = ""

    def matches(self, event: _Event) -> bool:
        if self.checkpoint is not None:
            return event.kind == "checkpoint" and event.name == self.checkpoint
        if self.effect is not None:
            return event.kind == "effect" and event.ordinal == self.effect
        return event.index == self.index

    def __str__(self) -> str:
        if self.label:
            return self.label
        if self.checkpoint is not None:
            return f"at checkpoint {self.checkpoint!r}"
        return f"after effect #{self.effect}" if self.effect is not None else f"at event {self.index}"


FIRST = Point(index=1, label="at its first event")


@dataclass
class _Plan:
    pause_at: Point | None = None
    kill_at: Point | None = None
    fail_at: Point | None = None


@dataclass
class _Event:
    kind: str  # "checkpoint" | "effect"
    name: str  # checkpoint name or effect kind
    targets: list[str] = field(default_factory=list)
    index: int = 0  # position among the run's events
    ordinal: int = 0  # position among the run's effects

    def describe(self) -> str:
        if self.kind == "checkpoint":
            return f"checkpoint {self.name!r}"
        return f"effect #{self.ordinal} ({describe_targets(self.name, self.targets)})"


# ---------------------------------------------------------------------------- child side


def _child_main(job: Callable[[Any, RunEnv], Any], work: Any, env: RunEnv, conn: Any,
                recorders: list[Recorder]) -> None:
    control._install(conn)
    try:
        go = conn.recv()  # wait until the harness lets every runner of the scenario go
    except EOFError:
        go = None
    if go != "start":  # the harness gave up on this scenario
        os._exit(2)
    try:
        for recorder in recorders:
            recorder.child_start(env)
        result = job(work, env)
    except BaseException as exc:  # noqa: BLE001 - report anything, including SystemExit
        try:
            conn.send(("exit", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
        except OSError:
            pass
        sys.exit(1)
    try:
        conn.send(("result", None if result is None else _short_repr(result)))
    except OSError:
        pass
    sys.exit(0)


def _patching(recorders: list[Recorder]) -> list[Recorder]:
    """The recorders that prepare the child: only they travel to it (pickled under spawn)."""
    return [r for r in recorders if type(r).child_start is not Recorder.child_start]


def _short_repr(value: Any, limit: int = 120) -> str:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not fail the run
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------- parent side


class _Runner:
    """One run of the job in a child process, as the harness sees it."""

    def __init__(self, scenario: _Scenario, slot: str, attempt: int, plan: _Plan) -> None:
        self.scenario = scenario
        self.slot = slot
        self.attempt = attempt
        self.label = slot if attempt == 1 else f"{slot}#{attempt}"
        self.plan = plan
        self.held = threading.Event()
        self.release = threading.Event()
        self.index = 0
        self.effects = 0
        self.fired: set[str] = set()
        self.point: str | None = None  # where a plan step fired
        self.paused_at: int | None = None  # the index of the event it was held at
        self.fired_at: int | None = None  # the index of the event it was killed or failed at
        self.error: tuple[str, str] | None = None
        self.result: str | None = None  # repr of what the job returned
        self.outcome: RunOutcome | None = None
        self.process: Any = None
        self.conn: Any = None
        self.reader: threading.Thread | None = None
        self._lock = threading.Lock()

    # -- events (called from the pipe reader thread or a sink thread)

    def before(self, event: _Event) -> str:
        with self._lock:
            self.index += 1
            event.index = self.index
            if event.kind == "effect":
                self.effects += 1
                event.ordinal = self.effects
        self.scenario.ledger.note(TraceItem(self.label, event.index, event.kind, event.describe()))
        pause = self.plan.pause_at
        if pause and "pause" not in self.fired and pause.matches(event):
            self.fired.add("pause")
            self.point = f"paused at {event.describe()}"
            self.paused_at = event.index
            self.held.set()
            self.release.wait(self.scenario.harness.run_timeout)
        return self.decide(event) if event.kind == "checkpoint" else GO

    def decide(self, event: _Event) -> str:
        where = f"at {event.describe()}" if event.kind == "checkpoint" else f"after {event.describe()}"
        kill, fail = self.plan.kill_at, self.plan.fail_at
        if kill and "kill" not in self.fired and kill.matches(event):
            self.fired.add("kill")
            self.point = f"killed {where}"
            self.fired_at = event.index
            os.kill(self.process.pid, signal.SIGKILL)
            return KILL
        if fail and "fail" not in self.fired and fail.matches(event):
            self.fired.add("fail")
            self.point = f"failed {where}"
            self.fired_at = event.index
            return FAIL
        return GO

    def serve(self) -> None:
        """Answer the child's control messages until it exits."""
        while True:
            try:
                message = self.conn.recv()
            except (EOFError, OSError):
                return
            tag = message[0]
            if tag == "exit":
                self.error = (message[1], message[2])
                continue
            if tag == "result":
                self.result = message[1]
                continue
            if tag == "checkpoint":
                action = self.before(_Event("checkpoint", message[1]))
            else:
                _, kind, targets, key, detail = message
                action, _ = self.scenario.record(self, kind, targets, detail or {}, ("hook", kind, key) if key else None)
            if action == KILL:
                continue  # no answer: it is dead
            try:
                self.conn.send(action)
            except OSError:
                return

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.is_alive()

    def finish(self, timeout: float) -> RunOutcome:
        self.process.join(timeout)
        status = None
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
            status = "timeout"
        if self.reader is not None:
            self.reader.join(5)
        self.conn.close()
        code = self.process.exitcode
        if status is None:
            status = "ok" if code == 0 else "killed" if self.point and self.point.startswith("killed") else "error"
        error, tb = self.error or (None, None)
        if status == "error" and error is None:
            error = f"exit code {code}"
        if status == "timeout":
            error = f"did not finish within {timeout:.0f}s"
        self.outcome = RunOutcome(self.label, status, error, tb, self.point, self.result)
        return self.outcome


class _Scenario:
    """One scenario's directory, ledger and runs; the sinks report here while it is bound."""

    def __init__(self, harness: Harness, name: str) -> None:
        self.harness = harness
        self.name = name
        harness._counter += 1
        self.workdir = harness.basedir / f"{harness._counter:02d}-{name}"
        self.workdir.mkdir(parents=True)
        self.namespace = f"jc{uuid.uuid4().hex[:10]}"
        self.ledger = EffectLedger()
        self.current: dict[str, _Runner] = {}
        self.runners: list[_Runner] = []

    def env(self, slot: str, attempt: int) -> RunEnv:
        endpoints = {}
        for rec in self.harness.recorders:
            point = rec.endpoint(slot) if slot in SLOTS else None
            if point is not None:
                endpoints[rec.name] = point
        return RunEnv(self.name, slot, attempt, self.workdir, self.namespace, self.harness.lease_ttl, endpoints)

    # -- the hub API used by sinks and the pipe readers

    def effect(self, slot: str, kind: str, targets: list[str], detail: dict[str, Any], key: Any) -> tuple[str, list[Any]]:
        return self.record(self.current.get(slot), kind, targets, detail, key)

    def record(self, runner: _Runner | None, kind: str, targets: list[str], detail: dict[str, Any], key: Any) -> tuple[str, list[Any]]:
        event = _Event("effect", kind, list(targets))
        if runner is not None:
            runner.before(event)  # may hold here: the effect has not happened yet
        effects, _new = self.ledger.record(kind, targets, runner.label if runner else "?", detail, key)
        return (runner.decide(event) if runner is not None else GO), effects

    # -- running

    def start(self, slot: str, plan: _Plan | None = None, *, attempt: int = 1, go: bool = True) -> _Runner:
        runner = _Runner(self, slot, attempt, plan or _Plan())
        ctx = multiprocessing.get_context(self.harness.start_method)
        parent, child = ctx.Pipe()
        runner.conn = parent
        # Not a daemon: a job may start processes of its own. close() kills what is left.
        runner.process = ctx.Process(
            target=_child_main,
            args=(self.harness.job, self.harness.work, self.env(slot, attempt), child, _patching(self.harness.recorders)),
        )
        with warnings.catch_warnings():
            # Python 3.12+ warns about fork() in a threaded process; the child only runs the job
            # and its control pipe, never the harness's threads or locks.
            warnings.simplefilter("ignore", DeprecationWarning)
            runner.process.start()
        child.close()  # so the pipe reports EOF when the child dies
        runner.reader = threading.Thread(target=runner.serve, daemon=True, name=f"jobcheck-runner-{runner.label}")
        runner.reader.start()
        self.current[slot] = runner
        self.runners.append(runner)
        if go:
            self.go(runner)
        return runner

    def go(self, *runners: _Runner) -> None:
        for runner in runners:
            runner.conn.send("start")

    def wait(self, *runners: _Runner, timeout: float | None = None) -> None:
        for runner in runners:
            runner.finish(self.harness.run_timeout if timeout is None else timeout)

    def wait_until(self, condition: Callable[[], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    def observe(self) -> Observation:
        env = self.env("observer", 0)
        state = {rec.name: rec.snapshot(env) for rec in self.harness.recorders if isinstance(rec, DbState)}
        return Observation(self.ledger.counts(), state, self.ledger.absorbed.copy(), self.ledger.effects)

    def trace(self, runner: _Runner) -> list[TraceItem]:
        return [item for item in self.ledger.trace if item.runner == runner.label]

    def close(self) -> None:
        for runner in self.runners:
            runner.release.set()
        for runner in self.runners:
            if runner.outcome is None and runner.process is not None:
                if runner.process.is_alive():
                    runner.process.kill()
                runner.finish(5)
