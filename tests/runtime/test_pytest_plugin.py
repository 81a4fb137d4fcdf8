"""The pytest plugin as a user meets it: items per scenario, fixtures, answers, JSON and JUnit."""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET
from typing import Any

import pytest

pytest_plugins = ["pytester"]

# A job that pushes a notification unless its table says it did: check-then-act, so two runs
# at once push twice, and a kill between the push and the insert pushes again.
JOB = '''
import fcntl
import sqlite3

import pytest

from jobcheck.runtime import checkpoint, record_effect, sqlite_state


def setup(env):
    db = sqlite3.connect(env.path("d.db"))
    db.execute("CREATE TABLE sent (who TEXT)")
    db.commit()


def push(who, env):
    db = sqlite3.connect(env.path("d.db"))
    if not db.execute("SELECT 1 FROM sent WHERE who = ?", (who,)).fetchone():
        record_effect("push", who)
        db.execute("INSERT INTO sent VALUES (?)", (who,))
        db.commit()


def serialized_push(who, env):
    with open(env.path("lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a second run waits here for the first
        checkpoint("locked")
        push(who, env)


STATE = sqlite_state(lambda env: env.path("d.db"), sent="SELECT who FROM sent")
'''


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    pytester.makepyfile(jobs=JOB)
    pytester.syspathinsert()
    # Only this plugin in the inner sessions: they start in a third of the time.
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return pytester


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest("-p", "jobcheck.runtime.pytest_plugin", *args)


def make_test(pytester: pytest.Pytester, body: str) -> None:
    pytester.makepyfile(test_push="from jobs import *\n\n" + textwrap.dedent(body))


ITEMS = '''
@pytest.mark.jobcheck(scenarios=["replay", "concurrent", "kill"])
def test_push(jobcheck_scenario):
    jobcheck_scenario(push, "ada", setup=setup, observe=[STATE])
'''


def test_one_item_per_scenario_selected_and_rerun_by_name(project: pytest.Pytester) -> None:
    make_test(project, ITEMS)
    result = run(project, "-v")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines([
        "*test_push.py::test_push[[]replay[]] PASSED*",
        "*test_push.py::test_push[[]concurrent[]] FAILED*",
        "*test_push.py::test_push[[]kill[]] FAILED*",
    ])
    out = result.stdout.str()
    assert "can it run twice: no — 2 × push ada (expected 1)" in out
    assert "killed after effect #1 (push ada), then recovered: 2 × push ada (expected 1)" in out
    assert "run A#2: ok" in out  # the details, not just the answer
    assert "jobcheck/runtime/harness.py" not in out  # the failure points at the test's line, not the harness

    run(project, "-k", "kill").assert_outcomes(failed=1, deselected=2)
    rerun = run(project, "--lf", "-v")
    rerun.assert_outcomes(failed=2)
    rerun.stdout.fnmatch_lines(["*rerun previous 2 failures*"])
    rerun.stdout.no_fnmatch_line("*test_push[[]replay[]]*")


def test_the_marker_rejects_an_unknown_scenario(project: pytest.Pytester) -> None:
    make_test(project, '''
        @pytest.mark.jobcheck(scenarios=["kil"])
        def test_push(jobcheck_scenario):
            jobcheck_scenario(push, "ada", setup=setup, observe=[STATE])
    ''')
    result = run(project)
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*unknown jobcheck scenario 'kil'; choose from concurrent, overlap, kill, *"])


def test_effects_fixture_and_count_helper(project: pytest.Pytester) -> None:
    make_test(project, '''
        @pytest.mark.jobcheck(scenarios=["replay"])
        def test_push(jobcheck_scenario, jobcheck_effects):
            report = jobcheck_scenario(push, "ada", setup=setup, observe=[STATE])
            assert report.count("push") == report.count("push", "ada") == 1
            assert report.count("push", "grace") == 0
            assert jobcheck_effects.report is report
            assert jobcheck_effects.count("push") == 1
            assert [(e.kind, e.target, e.runner) for e in jobcheck_effects.effects] == [("push", "ada", "A")]

        def test_nothing_ran_yet(jobcheck_effects):
            with pytest.raises(LookupError, match="no jobcheck scenario has run in this test yet"):
                jobcheck_effects.count("push")
    ''')
    run(project).assert_outcomes(passed=2)


def test_json_report_and_junit_properties(project: pytest.Pytester) -> None:
    make_test(project, '''
        @pytest.mark.jobcheck(scenarios=["concurrent", "lease_expiry"])
        def test_push(jobcheck_scenario):
            jobcheck_scenario(push, "ada", setup=setup, observe=[STATE], allow_untested=["lease_expiry"])

        def test_whole_suite(jobcheck_harness):
            jobcheck_harness(push, "ada", setup=setup, observe=[STATE]).verify(["replay"])
    ''')
    result = run(project, "--jobcheck-report=ci/jobcheck.json", "--junitxml=junit.xml")
    result.assert_outcomes(passed=2, failed=1)

    data = json.loads((project.path / "ci" / "jobcheck.json").read_text())
    assert data["summary"] == {"yes": 1, "no": 1, "not tested": 1}
    rows = {row["nodeid"] + " " + row["scenario"]: row for row in data["scenarios"]}
    assert sorted(rows) == [
        "test_push.py::test_push[concurrent] concurrent",
        "test_push.py::test_push[lease_expiry] lease_expiry",
        "test_push.py::test_whole_suite replay",
    ]
    concurrent = rows["test_push.py::test_push[concurrent] concurrent"]
    assert concurrent["verdict"] == "no"
    assert concurrent["problems"][0] == "2 × push ada (expected 1)"
    assert concurrent["counts"] == [{"kind": "push", "target": "ada", "count": 2}]
    untested = rows["test_push.py::test_push[lease_expiry] lease_expiry"]
    assert untested["verdict"] == "not tested" and "lease_ttl" in untested["untested"]

    cases = {case.get("name"): case for case in ET.parse(project.path / "junit.xml").getroot().iter("testcase")}
    properties = {name: {p.get("name"): p.get("value") for p in case.iter("property")} for name, case in cases.items()}
    assert properties["test_push[concurrent]"]["jobcheck.concurrent"].startswith("can it run twice: no — 2 × push ada")
    assert properties["test_push[lease_expiry]"]["jobcheck.lease_expiry"].startswith(
        "is a paused runner fenced off when its lease expires: not tested")
    assert properties["test_whole_suite"]["jobcheck.replay"].startswith("is it idempotent: yes")


def test_answers_summary_shows_notes(project: pytest.Pytester) -> None:
    make_test(project, '''
        @pytest.mark.jobcheck(scenarios=["overlap"])
        def test_push(jobcheck_scenario):
            jobcheck_scenario(serialized_push, "ada", setup=setup, observe=[STATE], pause_at="locked", overlap_grace=0.3)
    ''')
    result = run(project, "--jobcheck-answers")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([
        "*jobcheck: the five questions*",
        "test_push.py::test_push[[]overlap[]]: can it overlap itself: yes — *note: run B was still running 0.3s after it started (waiting for A?)*",
    ])


def test_scenario_fixture_needs_the_parametrization(project: Any) -> None:
    make_test(project, '''
        def test_push(request):
            request.getfixturevalue("jobcheck_scenario")
    ''')
    result = run(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*jobcheck_scenario must be an argument of the test function*"])
