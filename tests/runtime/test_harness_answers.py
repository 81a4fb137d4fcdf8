"""The harness never says "yes" without evidence: "not tested", every pause point, random points
with a seed and shrinking, counting effects, end-state diffs and the JSON form of a report."""

from __future__ import annotations

import fcntl
import json
import re
import sqlite3
from collections import Counter
from typing import Any

import pytest

import jobcheck.runtime.harness as harness_module
from jobcheck.runtime import (
    FiveQuestionsError,
    Harness,
    Observation,
    ScenarioReport,
    SQLiteLeases,
    checkpoint,
    record_effect,
)
from jobcheck.runtime.points import from_trace, sample
from jobcheck.runtime.report import compare

from .test_harness import (  # harness: a SQLite "done" table observed with sqlite_state
    counter_job,
    harness,
)

# --------------------------------------------------------------------------- jobs under test
# Module level, so the spawn start method could pickle them too.


def _done(db: sqlite3.Connection, unit: str) -> bool:
    return db.execute("SELECT 1 FROM done WHERE unit = ?", (unit,)).fetchone() is not None


def _mark(db: sqlite3.Connection, unit: str) -> None:
    with db:
        db.execute("INSERT INTO done VALUES (?)", (unit,))


def start_job(unit: str, env: Any) -> str:
    """Check-then-act with a checkpoint at its top, before the check: pausing there proves nothing."""
    checkpoint("start")
    return unguarded_job(unit, env)


def unguarded_job(unit: str, env: Any) -> str:
    """Check-then-act: a webhook, then a record that it was sent."""
    db = sqlite3.connect(env.path("data.db"), timeout=10)
    try:
        if _done(db, unit):
            return "already done"
        record_effect("webhook", "https://partner.example/hook")
        _mark(db, unit)
        return "sent"
    finally:
        db.close()


def leased_job(work: tuple[str, float | None], env: Any) -> str:
    """A lease, no fencing; a checkpoint right after acquiring it, where the docs suggest one.
    ``ttl`` None uses the harness's lease_ttl, a number the job's own (too long) TTL."""
    unit, ttl = work
    leases = SQLiteLeases(env.path("leases.db"))
    lease = leases.acquire(unit, ttl or env.lease_ttl)
    if lease is None:
        return "busy"
    try:
        checkpoint("leased")
        return unguarded_job(unit, env)
    finally:
        leases.release(lease)


def keyed_job(unit: str, env: Any) -> None:
    """Safe: the partner deduplicates by a key from the work."""
    db = sqlite3.connect(env.path("data.db"), timeout=10)
    try:
        if not _done(db, unit):
            record_effect("webhook", "https://partner.example/hook", key=f"hook:{unit}")
            _mark(db, unit)
    finally:
        db.close()


def batch_job(unit: str, env: Any) -> None:
    """Three harmless checkpoints, then three unkeyed SMS recorded only at the end: an
    interruption after any SMS repeats them all, one before them repeats nothing."""
    for step in ("load", "plan", "render"):
        checkpoint(step)
    db = sqlite3.connect(env.path("data.db"), timeout=10)
    try:
        if _done(db, unit):
            return
        for n in range(3):
            record_effect("sms", f"+1555010{n}")
        _mark(db, unit)
    finally:
        db.close()


def locked_job(unit: str, env: Any) -> None:
    """Runs one at a time under a blocking file lock taken before its first event."""
    with open(env.path("job.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        keyed_job(unit, env)
        checkpoint("marked")


# --------------------------------------------------------------------------- "not tested"


def test_a_scenario_that_cannot_run_is_not_tested_and_verify_refuses_it(tmp_path: Any) -> None:
    with harness(tmp_path, keyed_job, "u1") as h:  # no lease_ttl: lease_expiry cannot run
        with pytest.raises(FiveQuestionsError) as info:
            h.verify(["lease_expiry", "replay"])
        suite = info.value.suite
        assert suite.failed == [] and suite.untested == ["lease_expiry"] and not suite.passed
        message = str(info.value)
        assert message.startswith("jobcheck: 0 of 2 checks failed, 1 not tested (allow_untested=['lease_expiry'] accepts that)")
        assert "is a paused runner fenced off when its lease expires: not tested — pass lease_ttl=" in message
        # Allowed explicitly, by name on verify() or for every scenario on the harness.
        suite = h.verify(["lease_expiry", "replay"], allow_untested=["lease_expiry"])
        assert suite.accepted and not suite.passed and suite["lease_expiry"].verdict == "not tested"
    with harness(tmp_path / "all", keyed_job, "u1", allow_untested=True) as h:
        assert h.verify(["lease_expiry"]).accepted


def test_a_point_never_reached_is_not_tested(tmp_path: Any) -> None:
    with harness(tmp_path, start_job, "u1", pause_at="strat", points=["strat"]) as h:
        for scenario in ("overlap", "kill"):
            report = h.run(scenario)
            assert report.verdict == "not tested" and not report.passed, report.details()
            assert "the point at checkpoint 'strat' was never reached" in report.line()
            (part,) = report.parts
            assert [r.runner for r in part.runs] == ["A"]  # no second run: it would be a replay
        assert h.run("overlap").line() == (
            "can it overlap itself: not tested — A was paused at checkpoint 'strat': "
            "the point at checkpoint 'strat' was never reached (run A: ok → returned 'sent')"
        )


def test_a_job_lease_longer_than_lease_ttl_is_not_tested(tmp_path: Any) -> None:
    # The job holds its lease for 30 s whatever the harness says: run B finds it held and skips.
    with harness(tmp_path, leased_job, ("u1", 30.0), lease_ttl=0.1) as h:
        report = h.run("lease_expiry")
        assert report.verdict == "not tested", report.details()
        assert [p.verdict for p in report.parts] == ["not tested", "not tested"]
        assert "run B stopped after 0 of the 1 events A had reached" in report.line()
        assert "lease_ttl=0.1s" in report.line()
        assert all(r.result == "'busy'" for p in report.parts for r in p.runs if r.runner == "B")
        with pytest.raises(FiveQuestionsError, match="1 not tested"):
            h.verify(["lease_expiry"])


def test_a_run_b_that_cannot_take_over_is_not_tested(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(harness_module, "_MIN_TAKEOVER_WAIT", 0.5)  # B's patience, for a fast test
    # A holds its file lock while paused, so B waits however long A's lease has expired.
    with harness(tmp_path, locked_job, "u1", lease_ttl=0.1, pause_at="marked") as h:
        report = h.run("lease_expiry")
        assert report.verdict == "not tested", report.details()
        assert "run B did not finish within" in report.untested and "(waiting for A?" in report.untested


def test_two_runs_that_never_stand_side_by_side_are_not_tested(tmp_path: Any) -> None:
    with harness(tmp_path, locked_job, "u1", rendezvous_timeout=1.0, overlap_grace=0.3) as h:
        report = h.run("concurrent")
        assert report.verdict == "not tested", report.details()
        # One waits for the other's lock (on a loaded machine both may still be starting).
        assert re.match(r"(run [AB] did not reach its|runs A and B did not reach their) first event within 1.0s",
                        report.untested), report.untested
        # A note shows on a "yes" too.
        overlap = h.run("overlap")
        assert overlap.passed
        assert overlap.line().endswith("; note: run B was still running 0.3s after it started (waiting for A?) (at 2 of 2 points)")
        assert "    note: run B was still running" in overlap.details()


# --------------------------------------------------------------------------- every point


def test_a_checkpoint_at_the_top_does_not_hide_an_unsafe_job(tmp_path: Any) -> None:
    with harness(tmp_path, start_job, "u1", lease_ttl=0.1) as h:
        for scenario in ("overlap", "lease_expiry"):
            report = h.run(scenario)
            assert report.verdict == "no", report.details()
            # Held at "start", A checks after B finished: fine. Held before the webhook, A had
            # already checked: it sends again.
            assert [(p.variant, p.verdict) for p in report.parts] == [
                ("A was paused at checkpoint 'start'" + (" past its lease" if scenario == "lease_expiry" else ""), "yes"),
                ("A was paused before effect #1 (webhook https://partner.example/hook)"
                 + (" past its lease" if scenario == "lease_expiry" else ""), "no"),
            ]
            assert report.line().split(" — ", 1)[1].startswith(
                "2 × webhook https://partner.example/hook (expected 1); database end state differs at done: + ('u1',) (2 rows, expected 1); when A was paused before effect #1"
            )


def test_a_lease_without_fencing_fails_lease_expiry_despite_a_checkpoint_after_acquiring(tmp_path: Any) -> None:
    with harness(tmp_path, leased_job, ("u1", None), lease_ttl=0.1) as h:
        report = h.run("lease_expiry")
        assert report.verdict == "no", report.details()
        leased, before_webhook = report.parts
        assert leased.passed  # the one point the harness used to try
        assert not before_webhook.passed and before_webhook.count("webhook") == 2
    # The lease does keep live runners apart (a TTL no start-up delay outlasts).
    with harness(tmp_path / "overlap", leased_job, ("u1", None), lease_ttl=30) as h:
        assert h.run("overlap").passed


def test_a_fenced_job_answers_yes_at_every_pause_point(tmp_path: Any) -> None:
    # Held after its last write, A leaves nothing to take over: B finding the work done is no gap.
    with harness(tmp_path, counter_job, ("u1", True), lease_ttl=0.1) as h:
        report = h.run("lease_expiry")
        assert report.passed, report.details()
        checked, recorded = report.parts
        assert [r.error.split(":")[0] for r in checked.runs if r.runner == "A"] == ["StaleTokenError"]
        assert [r.result for r in recorded.runs if r.runner == "B"] == ["'already done'"]


# --------------------------------------------------------------------------- random points, shrinking


def _seed_skipping_the_first_sms(h: Harness) -> int:
    """A seed whose two random points miss the first SMS but catch a later one."""
    every = from_trace(h._trace(), effect_word="after")
    first_sms = next(p.index for p in every if "sms" in p.label)
    for seed in range(1000):
        chosen = {p.index for p in sample(every, 2, f"{seed}:retry")}
        if first_sms not in chosen and max(chosen) > first_sms:
            return seed
    raise AssertionError("no such seed")


def test_random_points_are_reproducible_and_shrunk_to_the_earliest_failure(tmp_path: Any) -> None:
    with harness(tmp_path / "a", batch_job, "u1", points="random", samples=2, seed=0) as probe:
        seed = _seed_skipping_the_first_sms(probe)
    variants = []
    for run in ("first", "again"):
        with harness(tmp_path / run, batch_job, "u1", points="random", samples=2, seed=seed) as h:
            report = h.run("retry")
            variants.append([p.variant for p in report.parts])
            assert report.verdict == "no" and report.seed == seed
            assert report.line().startswith(
                "can it retry safely: no — failed after effect #1 (sms +15550100), then retried: 2 × sms +15550100 (expected 1)"
            )
            assert f"random, seed {seed})" in report.line()
            assert "smallest failing point found by shrinking: failed after effect #1 (sms +15550100), then retried" in report.line()
            assert report.to_dict()["seed"] == seed
    assert variants[0] == variants[1]
    # The parts: the two random points plus the earlier ones shrinking tried, in run order.
    assert variants[0][0] == "failed at checkpoint 'load', then retried"


def test_random_points_without_a_seed_show_the_one_they_used(tmp_path: Any) -> None:
    with harness(tmp_path, keyed_job, "u1", points="random", samples=1) as h:
        report = h.run("kill")
        assert report.passed and isinstance(report.seed, int)
        assert report.line().endswith(f"(1 point, random, seed {report.seed})")


# --------------------------------------------------------------------------- counting, diffs, JSON


def test_count_and_effects(tmp_path: Any) -> None:
    with harness(tmp_path, unguarded_job, "u1") as h:
        report = h.run("concurrent")
        assert report.count("webhook") == 2
        assert report.count("webhook", "https://partner.example/hook") == 2
        assert report.count("webhook", "https://other.example/") == 0
        assert report.count("email") == 0
        assert sorted(e.runner for e in report.effects) == ["A", "B"]
        assert {(e.kind, e.target) for e in report.effects} == {("webhook", "https://partner.example/hook")}
        assert report.counts() == {("webhook", "https://partner.example/hook"): 2}
    assert ScenarioReport("replay", "yes").count("webhook") == 0


def test_end_state_diff_lists_extra_and_missing_rows() -> None:
    expected = Observation(Counter(), {"database": {"invoices": [("cus_1", 100), ("cus_2", 200)], "totals": [(1,)]}})
    extra = [(f"cus_{n}", n) for n in range(10, 20)]
    observed = Observation(Counter(), {"database": {
        "invoices": [("cus_1", 100), ("cus_1", 100), ("cus_1", 100), *extra],
        "totals": [(1,)],
    }})
    (problem,) = compare(expected, observed)
    assert problem.splitlines() == [
        "database end state differs at invoices: 12 extra rows, 1 missing row",
        "  + ('cus_1', 100) ×2 (3 rows, expected 1)",
        *(f"  + ('cus_{n}', {n})" for n in range(10, 17)),
        "  and 4 more",
    ]
    report = ScenarioReport("replay", "no", [problem], observed, expected)
    assert report.line() == "is it idempotent: no — database end state differs at invoices: 12 extra rows, 1 missing row"
    details = report.details()
    assert "  + ('cus_1', 100) ×2 (3 rows, expected 1)" in details and "and 4 more" in details
    # The last of them, missing, is among the lines left out: shown when fewer rows differ.
    (problem,) = compare(expected, Observation(Counter(), {"database": {"invoices": [("cus_1", 100)], "totals": [(1,)]}}))
    assert problem == "database end state differs at invoices: - ('cus_2', 200)"


def test_reports_as_json(tmp_path: Any) -> None:
    with harness(tmp_path, unguarded_job, "u1") as h:
        suite = h.run_all(["replay", "kill"])
    data = suite.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["passed"] is False and data["failed"] == ["kill"] and data["untested"] == []
    replay, kill = data["scenarios"]
    assert replay["scenario"] == "replay" and replay["question"] == "is it idempotent" and replay["verdict"] == "yes"
    assert kill["verdict"] == "no" and kill["line"] == suite["kill"].line()
    assert kill["counts"] == [{"kind": "webhook", "target": "https://partner.example/hook", "count": 2}]
    assert data["baseline"]["counts"] == [{"kind": "webhook", "target": "https://partner.example/hook", "count": 1}]
    assert [p["variant"] for p in kill["parts"]] == ["killed after effect #1 (webhook https://partner.example/hook), then recovered"]
    assert kill["parts"][0]["runs"][0] == {
        "runner": "A", "status": "killed", "error": None, "traceback": None,
        "point": "killed after effect #1 (webhook https://partner.example/hook)", "result": None,
    }
    assert set(kill) == {"scenario", "question", "verdict", "passed", "line", "problems", "untested", "notes",
                         "variant", "seed", "counts", "expected_counts", "runs", "parts"}
