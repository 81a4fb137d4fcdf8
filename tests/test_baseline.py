"""Baselines end to end through the CLI: findings recorded once stay quiet when the code around
them moves, and new findings are still reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .cli_support import run_cli, write_tree

HEADER = '''from celery import shared_task
from django.core.mail import send_mail
import requests
'''

NOTIFY = '''

@shared_task(autoretry_for=(Exception,), max_retries=3)
def notify(address):
    send_mail("Hi", "body", None, [address])
    send_mail("Hi", "body", None, [address])
'''

PUSH = '''

@shared_task(autoretry_for=(Exception,), max_retries=3)
def push(url):
    requests.post(url, json={})
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_tree(tmp_path, {
        "pyproject.toml": "[tool.jobcheck]\nselect = [\"JC201\"]\n",
        "jobs/__init__.py": "",
        "jobs/tasks.py": HEADER + NOTIFY + PUSH,
    })


def _check(project: Path, *args: str, cwd: Path | None = None):
    return run_cli(["check", "--output-format", "concise", *args], cwd or project)


def _write_baseline(project: Path) -> Path:
    result = _check(project, "--write-baseline", "jobcheck-baseline.json", ".")
    assert result.exit_code == 0, result.output
    assert "wrote 3 findings" in result.stderr
    return project / "jobcheck-baseline.json"


def test_baseline_file_format(project: Path) -> None:
    assert len(_check(project, ".").stdout.splitlines()) == 3  # two identical sends and a POST
    data = json.loads(_write_baseline(project).read_text())
    assert data["version"] == 1
    assert sorted((e["code"], e["path"], e["job"]) for e in data["findings"]) == [
        ("JC201", "jobs/tasks.py", "jobs.tasks.notify"), ("JC201", "jobs/tasks.py", "jobs.tasks.notify"),
        ("JC201", "jobs/tasks.py", "jobs.tasks.push"),
    ]
    assert sorted(e["anchor"] for e in data["findings"]) == [
        'requests.post(url, json={})', 'send_mail("Hi", "body", None, [address])', 'send_mail("Hi", "body", None, [address])',
    ]
    assert len({e["fingerprint"] for e in data["findings"]}) == 3  # identical lines told apart
    assert all("line" not in e for e in data["findings"])  # the file does not churn when code moves


def test_moved_code_stays_baselined_and_new_findings_are_reported(project: Path) -> None:
    baseline = _write_baseline(project)
    quiet = _check(project, "--baseline", str(baseline), ".")
    assert quiet.exit_code == 0 and quiet.stdout == "", quiet.output
    assert "3 findings recorded" in quiet.stderr

    tasks = project / "jobs" / "tasks.py"
    # Lines inserted above, the two jobs swapped, and the body re-indented under a new `with`.
    moved_notify = NOTIFY.replace('    send_mail("Hi", "body", None, [address])\n',
                                  '    with open("/dev/null"):\n        send_mail("Hi", "body",  None, [address])\n', 1)
    tasks.write_text('"""Jobs."""\n\nimport os\nimport sys\n' + HEADER + PUSH + moved_notify, encoding="utf-8")
    assert len(_check(project, ".").stdout.splitlines()) == 3  # without the baseline, all are there
    moved = _check(project, "--baseline", str(baseline), ".")
    assert moved.exit_code == 0 and moved.stdout == "", moved.stdout

    # From another working folder, with a relative path to the baseline: same result.
    other = _check(project, "--baseline", "../jobcheck-baseline.json", "..", cwd=project / "jobs")
    assert other.exit_code == 0 and other.stdout == "", other.stdout

    # A new bad call is reported, and only it; so is a third copy of an identical baselined line.
    tasks.write_text(tasks.read_text(encoding="utf-8").replace(
        "    requests.post(url, json={})\n",
        "    requests.post(url, json={})\n    requests.patch(url, json={})\n    requests.post(url, json={})\n"), encoding="utf-8")
    new = _check(project, "--baseline", str(baseline), ".")
    assert new.exit_code == 1
    reported = new.stdout.splitlines()
    assert len(reported) == 2, reported
    assert all(" JC201 " in line and "jobs/tasks.py:" in line for line in reported)
    text = tasks.read_text(encoding="utf-8").splitlines()
    lines = sorted(int(line.split(":")[1]) for line in reported)
    assert text[lines[0] - 1].strip() == "requests.patch(url, json={})"
    assert text[lines[1] - 1].strip() == "requests.post(url, json={})"


def test_baseline_errors_exit_2(project: Path) -> None:
    missing = _check(project, "--baseline", "nope.json", ".")
    assert missing.exit_code == 2 and "cannot read baseline" in missing.stderr
    (project / "bad.json").write_text('{"findings": []}')
    wrong = _check(project, "--baseline", "bad.json", ".")
    assert wrong.exit_code == 2 and "not a jobcheck baseline" in wrong.stderr
    both = _check(project, "--baseline", "bad.json", "--write-baseline", "b.json", ".")
    assert both.exit_code == 2


def test_fingerprints_do_not_depend_on_the_order_of_the_list(tmp_path: Path) -> None:
    from jobcheck.engine.fingerprint import SourceLines, fingerprints
    from jobcheck.model import Finding, Severity, Span

    text = "a()\n  a()\nb()\n"
    findings = [Finding("JC201", "retry-on-unguarded-effect", "m.py", Span(line, 1, line, 4), "msg", Severity.ERROR, job="m.job")
                for line in (1, 2, 3)]
    sources = SourceLines({"m.py": text})
    forward = fingerprints(findings, tmp_path, sources)
    backward = fingerprints(findings[::-1], tmp_path, sources)
    assert forward == backward[::-1]
    assert len(set(forward)) == 3  # lines 1 and 2 normalise alike; their order in the file tells them apart


def test_source_lines_keeping_one_file_reads_again_and_keeps_in_memory_sources(tmp_path: Path) -> None:
    from jobcheck.engine.fingerprint import SourceLines

    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("x = 1\ny = 2\n", encoding="utf-8")
    b.write_text("z = 3\n", encoding="utf-8")
    lines = SourceLines({"buffer.py": "from editor\n"}, keep=1)
    assert lines.line(str(a), 2) == "y = 2"
    assert lines.line(str(b), 1) == "z = 3"
    a.write_text("x = 1\ny = changed\n", encoding="utf-8")
    assert lines.line(str(a), 2) == "y = changed"  # a was let go when b was read
    assert lines.line("buffer.py", 1) == "from editor"  # in-memory sources are never let go
    kept = SourceLines()
    assert kept.line(str(a), 2) == "y = changed"
    a.write_text("x = 1\ny = again\n", encoding="utf-8")
    kept.line(str(b), 1)
    assert kept.line(str(a), 2) == "y = changed"  # by default, read once


@pytest.mark.parametrize(("content", "says"), [
    ('{"version": 1, "findings": ' + "[" * 5000 + "]" * 5000 + "}", "nested too deeply"),
    ('{"version": 1, "findings": [{"fingerprint": ["1d8b"]}]}', "entry 1 has no fingerprint (a string)"),
    ('{"version": 1, "findings": [{"fingerprint": "1d8b"}, 7]}', "entry 2 has no fingerprint (a string)"),
    ('{"version": 1, "findings": {"fingerprint": "1d8b"}}', "not a jobcheck baseline"),
])
def test_a_mistyped_or_nested_baseline_is_an_error_in_one_line(project: Path, content: str, says: str) -> None:
    (project / "bad.json").write_text(content, encoding="utf-8")
    result = _check(project, "--baseline", "bad.json", ".")
    assert result.exit_code == 2 and says in result.stderr and result.stderr.count("\n") == 1


def test_a_baseline_that_cannot_be_written_loses_nothing(project: Path, monkeypatch) -> None:
    from jobcheck.integrations import baseline

    recorded = _write_baseline(project)
    before = recorded.read_bytes()
    (project / "a_file").write_text("", encoding="utf-8")
    for target, says in (("missing/b.json", "missing does not exist"), ("a_file/b.json", "a_file is not a folder")):
        result = _check(project, "--write-baseline", target, ".")
        assert result.exit_code == 2 and f"cannot write baseline {target}: {says}" in result.stderr
        assert result.stderr.count("\n") == 1 and not (project / "missing").exists()

    def full_disk(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(baseline.os, "replace", full_disk)
    with pytest.raises(baseline.BaselineError, match="No space left on device"):
        baseline.write(recorded, [])
    assert recorded.read_bytes() == before  # the previous baseline is whole
    assert sorted(p.name for p in project.iterdir()) == sorted([".jobcheck_cache", "a_file", "jobs", "pyproject.toml",
                                                               recorded.name])
