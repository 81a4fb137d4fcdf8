"""The verification harness on small jobs whose answers are known in advance."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

import pytest

from jobcheck.runtime import (
    SCENARIOS,
    FiveQuestionsError,
    Harness,
    HarnessError,
    SQLiteLeases,
    checkpoint,
    fenced_transaction,
    in_harness,
    record_effect,
    sqlite_state,
)

# --------------------------------------------------------------------------- jobs under test
# Module level, so the spawn start method can pickle them too.


def make_db(env: Any) -> None:
    db = sqlite3.connect(env.path("data.db"))
    with db:
        db.execute("CREATE TABLE done (unit TEXT)")
        db.execute("CREATE TABLE totals (n INTEGER)")
        db.execute("INSERT INTO totals VALUES (0)")
    db.close()
    from jobcheck.runtime import install_fencing

    db = sqlite3.connect(env.path("data.db"))
    install_fencing(db)
    db.close()


STATE = sqlite_state(lambda env: env.path("data.db"), done="SELECT unit FROM done ORDER BY unit", totals="SELECT n FROM totals")


def counter_job(work: tuple[str, bool], env: Any) -> str:
    """Counts a unit once, under a lease; with fenced=False a paused runner can count it again."""
    unit, fenced = work
    leases = SQLiteLeases(env.path("leases.db"))
    lease = leases.acquire(unit, env.lease_ttl)
    if lease is None:
        return "busy"
    db = sqlite3.connect(env.path("data.db"), timeout=10)
    try:
        done = db.execute("SELECT count(*) FROM done WHERE unit = ?", (unit,)).fetchone()[0]
        checkpoint("checked")
        if done:
            return "already done"
        with fenced_transaction(db, unit, lease.token) if fenced else db:
            db.execute("INSERT INTO done VALUES (?)", (unit,))
            db.execute("UPDATE totals SET n = n + 1")
        checkpoint("recorded")
        return "counted"
    finally:
        db.close()
        leases.release(lease)


def sms_job(work: tuple[str, bool], env: Any) -> None:
    """Sends one SMS per unit, check-then-act; with keyed=True the SMS gateway deduplicates."""
    unit, keyed = work
    db = sqlite3.connect(env.path("data.db"), timeout=10)
    try:
        if db.execute("SELECT 1 FROM done WHERE unit = ?", (unit,)).fetchone():
            return
        record_effect("sms", "+15550100", key=f"sms:{unit}" if keyed else None)
        with db:
            db.execute("INSERT INTO done VALUES (?)", (unit,))
    finally:
        db.close()


def failing_job(work: Any, env: Any) -> None:
    raise ValueError("no database configured")


def idle_job(work: Any, env: Any) -> None:
    pass


def hanging_job(work: Any, env: Any) -> None:
    time.sleep(30)


def harness(tmp_path: Any, job: Any, work: Any, **options: Any) -> Harness:
    options.setdefault("observe", [STATE])
    options.setdefault("setup", make_db)
    return Harness(job, work, basedir=tmp_path, **options)


# --------------------------------------------------------------------------- fencing evidence


def test_an_unfenced_paused_runner_double_counts(tmp_path: Any) -> None:
    with harness(tmp_path, counter_job, ("u1", False), lease_ttl=0.5, pause_at="checked") as h:
        report = h.run("lease_expiry")
        assert not report.passed
        assert report.line() == (
            "is a paused runner fenced off when its lease expires: no — "
            "database end state differs at done: + ('u1',) (2 rows, expected 1); "
            "database end state differs at totals: + (2,), - (1,); "
            "when A was paused at checkpoint 'checked' past its lease"
        )
        runs = {r.runner: r for r in report.runs}
        assert runs["A"].status == runs["B"].status == "ok"  # nothing stopped the stale runner
        # The lease alone still keeps simultaneous runs apart.
        assert h.run("concurrent").passed
        assert h.run("overlap").passed


def test_a_fenced_paused_runner_is_rejected_by_the_store(tmp_path: Any) -> None:
    with harness(tmp_path, counter_job, ("u1", True), lease_ttl=0.5, pause_at="checked") as h:
        suite = h.verify()  # every scenario passes
        assert suite.passed and list(suite.reports) == list(SCENARIOS)
        runs = {r.runner: r for r in suite["lease_expiry"].runs}
        assert runs["A"].status == "error" and runs["A"].error.startswith("StaleTokenError")
        assert runs["A"].point == "paused at checkpoint 'checked'"
        assert runs["B"].status == "ok" and runs["B"].result == "'counted'"
        # No external effects: kill and retry interrupt at the checkpoints instead.
        assert [p.variant for p in suite["kill"].parts] == [
            "killed at checkpoint 'checked', then recovered",
            "killed at checkpoint 'recorded', then recovered",
        ]
        recovered = suite["kill"].parts[1].runs[1]
        assert recovered.result == "'already done'"  # the killed run had committed


# --------------------------------------------------------------------------- effects via the hook


def test_check_then_act_is_caught_running_twice(tmp_path: Any) -> None:
    with harness(tmp_path, sms_job, ("u1", False)) as h:
        report = h.run("concurrent")
        assert report.line().startswith("can it run twice: no — 2 × sms +15550100 (expected 1)")
        assert report.observed.counts[("sms", "+15550100")] == 2
        assert h.run("replay").passed  # sequential repeats are fine: the check sees the record


def test_kill_after_the_effect_repeats_it_unless_the_far_end_dedupes(tmp_path: Any) -> None:
    with harness(tmp_path / "plain", sms_job, ("u1", False)) as h:
        report = h.run("kill")
        assert not report.passed
        (part,) = report.parts
        first, recovery = part.runs
        assert first.status == "killed" and first.point == "killed after effect #1 (sms +15550100)"
        assert recovery.status == "ok"
        assert "killed after effect #1 (sms +15550100), then recovered: 2 × sms +15550100 (expected 1)" in report.line()
    with harness(tmp_path / "keyed", sms_job, ("u1", True)) as h:
        report = h.run("kill")
        assert report.passed
        assert report.observed.absorbed[("sms", "+15550100")] == 1


def test_retry_after_an_injected_failure(tmp_path: Any) -> None:
    with harness(tmp_path, sms_job, ("u1", False)) as h:
        report = h.run("retry")
        assert not report.passed
        first = report.parts[0].runs[0]
        assert first.status == "error" and first.error.startswith("InjectedFailure")
        assert first.point == "failed after effect #1 (sms +15550100)"


def test_verify_raises_an_assertion_that_reads_like_the_questions(tmp_path: Any) -> None:
    with harness(tmp_path, sms_job, ("u1", False)) as h:
        with pytest.raises(FiveQuestionsError) as info:
            h.verify(["concurrent", "replay"])
        assert isinstance(info.value, AssertionError)
        message = str(info.value)
        assert message.startswith("jobcheck: 1 of 2 checks failed (one clean run: 1 × sms +15550100)")
        assert "can it run twice: no — 2 × sms +15550100 (expected 1)" in message
        assert "is it idempotent: yes" in message


def test_explicit_points_and_spawned_children(tmp_path: Any) -> None:
    with harness(tmp_path, counter_job, ("u1", True), lease_ttl=0.2, points=["recorded"], start_method="spawn") as h:
        report = h.run("kill")
        assert report.passed
        assert [p.variant for p in report.parts] == ["killed at checkpoint 'recorded', then recovered"]
        assert report.parts[0].runs[0].status == "killed"


# --------------------------------------------------------------------------- harness errors


def test_a_job_that_fails_alone_has_no_baseline(tmp_path: Any) -> None:
    with harness(tmp_path, failing_job, None) as h:
        with pytest.raises(HarnessError, match="ValueError: no database configured"):
            h.run("replay")


def test_a_job_with_nothing_to_observe_is_an_error(tmp_path: Any) -> None:
    with Harness(idle_job, None, observe=[], basedir=tmp_path) as h:
        with pytest.raises(HarnessError, match="no observable effect"):
            h.run("replay")


def test_a_hanging_run_times_out(tmp_path: Any) -> None:
    with harness(tmp_path, hanging_job, None, run_timeout=0.5) as h:
        started = time.monotonic()
        with pytest.raises(HarnessError, match="did not finish within"):
            h.baseline()
        assert time.monotonic() - started < 5


def test_lease_expiry_needs_a_ttl(tmp_path: Any) -> None:
    with harness(tmp_path, sms_job, ("u1", True)) as h:
        report = h.run("lease_expiry")
        assert not report.passed and report.verdict == "not tested"
        assert report.line().startswith("is a paused runner fenced off when its lease expires: not tested — pass lease_ttl=")


def test_unknown_scenario(tmp_path: Any) -> None:
    with harness(tmp_path, sms_job, ("u1", True)) as h:
        with pytest.raises(ValueError, match="unknown scenario"):
            h.run("chaos")


def test_hooks_are_no_ops_outside_the_harness() -> None:
    assert not in_harness()
    assert checkpoint("anything") is None
    assert record_effect("sms", "+15550100") is None


def test_bad_points_are_rejected_before_any_server_starts(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="points must be one of"):
        Harness(idle_job, None, points="every", basedir=tmp_path)


def test_an_int_point_is_the_nth_effect(tmp_path: Any) -> None:
    with harness(tmp_path, counter_then_sms_job, None, points=[2, "between"]) as h:
        report = h.run("kill")
        # Parts come in the order the run reaches their points.
        assert [p.variant for p in report.parts] == [
            "killed at checkpoint 'between', then recovered",
            "killed after effect #2, then recovered",
        ]
        assert report.parts[0].runs[0].point == "killed at checkpoint 'between'"
        assert report.parts[1].runs[0].point == "killed after effect #2 (sms +15550102)"


def counter_then_sms_job(work: Any, env: Any) -> None:
    """Two keyed SMS with a checkpoint between them; a kill anywhere is recovered."""
    checkpoint("start")
    record_effect("sms", "+15550101", key="first")
    checkpoint("between")
    record_effect("sms", "+15550102", key="second")
