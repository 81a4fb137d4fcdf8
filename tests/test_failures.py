"""Never crash, never lie: a failure inside one file's summary, linking, one framework's scan,
one rule or the cache is reported (JC002) or worked around, every other finding is still
reported, and the command line exits 2 for it, `--exit-zero` or not."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from jobcheck import api
from jobcheck.analysis import source
from jobcheck.cache import store
from jobcheck.checks import all_checks
from jobcheck.config import Config
from jobcheck.engine import cached_run

from .cli_support import run_cli, write_tree

RETRIED_POST = """\
from celery import shared_task
import requests


@shared_task(autoretry_for=(Exception,), max_retries=3)
def push(order_id):
    requests.post("https://example.com/orders", json={"id": order_id})
"""

RQ_JOB = """\
import requests
from rq import Retry
from redis import Redis
from rq import Queue


def sync(order_id):
    requests.post("https://example.com/sync", json={"id": order_id})


def start(order_id):
    Queue(connection=Redis()).enqueue(sync, order_id, retry=Retry(max=3))
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "proj", {"tasks.py": RETRIED_POST, "rq_jobs.py": RQ_JOB, "broken.py": "def (:\n"})


def _codes(report) -> list[tuple[str, str]]:
    return sorted((f.code, Path(f.path).name) for f in report.findings)


def _check(name: str):
    return next(c for c in all_checks() if c.__name__.endswith("." + name))


def test_a_rule_that_raises_is_reported_and_the_others_still_run(tree: Path, monkeypatch) -> None:
    clean = api.check_paths([str(tree)], Config(root=tree), api.Selection(select=["ALL"]))
    assert ("JC201", "tasks.py") in _codes(clean) and ("JC000", "broken.py") in _codes(clean)

    def broken(ctx):
        for _ in ctx.reached_functions():
            raise KeyError("boom")
        yield  # a generator, as checks are

    monkeypatch.setattr(_check("retry_on_unguarded_effect"), "run", broken)
    report = api.check_paths([str(tree)], Config(root=tree), api.Selection(select=["ALL"]))
    failures = [f for f in report.findings if f.code == "JC002"]
    assert len(failures) == 1 and "rule JC201" in failures[0].message and "KeyError: 'boom'" in failures[0].message
    assert failures[0].path.endswith(".py")  # the function it was checking when it failed
    # Every other finding is still there: only JC201's are missing.
    assert [c for c in _codes(report) if c[0] != "JC002"] == [c for c in _codes(clean) if c[0] != "JC201"]
    assert report.failed


def test_a_framework_that_raises_leaves_the_other_frameworks_jobs(tree: Path, monkeypatch) -> None:
    from jobcheck.frameworks import celery

    monkeypatch.setattr(celery.Celery, "find_jobs", lambda self, project: 1 / 0)
    report = api.check_paths([str(tree)], Config(root=tree), api.Selection(select=["JC201"]))
    codes = _codes(report)
    assert ("JC201", "rq_jobs.py") in codes  # RQ's job is still found and checked
    assert ("JC201", "tasks.py") not in codes  # Celery's is not, and the run says why:
    (failure,) = [f for f in report.findings if f.code == "JC002"]
    assert "framework celery" in failure.message and "ZeroDivisionError" in failure.message


def test_a_file_whose_summary_fails_is_reported_and_the_others_are_analysed(tree: Path, monkeypatch) -> None:
    monkeypatch.setattr(source, "Summarizer", _FailingOn("rq_jobs.py", source.Summarizer))
    report = api.check_paths([str(tree)], Config(root=tree), api.Selection(select=["JC201"]))
    assert ("JC002", "rq_jobs.py") in _codes(report) and ("JC201", "tasks.py") in _codes(report)


class _FailingOn:
    """A summariser class that fails on one file."""

    def __init__(self, name: str, real) -> None:
        self.name, self.real = name, real

    def __call__(self, module: str, display: str, is_package: bool = False):
        if display.endswith(self.name):
            raise RuntimeError("summariser bug")
        return self.real(module, display, is_package)


def test_linking_that_fails_still_reports_what_each_file_says(tree: Path, monkeypatch) -> None:
    from jobcheck.engine import pipeline

    monkeypatch.setattr(pipeline, "build_project", lambda summaries, config, frameworks, schedules=None: [][0])
    report = api.check_paths([str(tree)], Config(root=tree), api.Selection(select=["ALL"]))
    assert sorted((f.code, Path(f.path).name or f.path) for f in report.findings) == [("JC000", "broken.py"), ("JC002", ".")]
    assert "linking the project" in next(f.message for f in report.findings if f.code == "JC002")


def test_a_failing_cache_falls_back_to_a_fresh_run(tree: Path, tmp_path: Path, monkeypatch) -> None:
    config, selection = Config(root=tree), api.Selection(select=["ALL"])
    fresh = api.check_paths([str(tree)], config, selection).findings
    cache = store.Cache(tmp_path / "cache")
    assert cached_run.check_paths([str(tree)], config, selection, cache=cache).findings == fresh

    def broken(*args, **kwargs):
        raise OSError("disk on fire")

    def undecodable(self, key):
        raise UnicodeError("bad")

    monkeypatch.setattr(store.Cache, "load_packed", undecodable)
    monkeypatch.setattr(store.Cache, "load_run", broken)
    monkeypatch.setattr(store.Cache, "store_run", broken)
    assert cached_run.check_paths([str(tree)], config, selection, cache=cache).findings == fresh


def test_a_corrupt_cache_folder_is_rebuilt(tree: Path, tmp_path: Path) -> None:
    config, selection = Config(root=tree), api.Selection(select=["ALL"])
    cache = store.Cache(tmp_path / "cache")
    first = cached_run.check_paths([str(tree)], config, selection, cache=cache).findings
    for entry in cache.folder.iterdir():
        if entry.name.startswith(("s-", "r-")):
            entry.write_bytes(b"JCC\x01garbage")
    assert cached_run.check_paths([str(tree)], config, selection, cache=cache).findings == first


def test_the_command_line_exits_2_on_an_internal_error_even_with_exit_zero(tree: Path, monkeypatch) -> None:
    monkeypatch.setattr(_check("retry_on_unguarded_effect"), "run", lambda ctx: iter([1 / 0]))
    for extra in ([], ["--exit-zero"]):
        result = run_cli(["check", "--no-cache", "--output-format", "json", *extra, "."], tree)
        assert result.exit_code == 2, result.stderr
        codes = {f["code"] for f in json.loads(result.stdout)}
        assert {"JC002", "JC000", "JC501"} <= codes  # the failure, and every other finding


def test_an_uncaught_error_exits_2_with_one_line(tree: Path, monkeypatch) -> None:
    monkeypatch.setattr(cached_run, "check_paths", lambda *a, **k: 1 / 0)
    monkeypatch.delenv("JOBCHECK_DEBUG", raising=False)
    for extra in ([], ["--exit-zero"]):
        result = run_cli(["check", *extra, "."], tree)
        assert result.exit_code == 2
        assert result.stderr.count("\n") == 1 and "internal error: ZeroDivisionError" in result.stderr
    monkeypatch.setenv("JOBCHECK_DEBUG", "1")
    assert "Traceback" in run_cli(["check", "."], tree).stderr


def test_an_unresolved_serve_call_with_the_cache(tmp_path: Path) -> None:
    """Once a crash of the cached run (an empty key recorded for any unresolved `serve`)."""
    root = write_tree(tmp_path / "proj", {"a.py": "def f(page, r):\n    return page.serve(r)\n"})
    for _ in range(2):  # cold, then from the record
        result = run_cli(["check", "--exit-zero", "."], root)
        assert result.exit_code == 0, result.stderr


def test_an_internal_error_is_never_recorded_in_a_baseline(tree: Path, monkeypatch) -> None:
    monkeypatch.setattr(_check("retry_on_unguarded_effect"), "run", lambda ctx: iter([1 / 0]))
    result = run_cli(["check", "--no-cache", "--write-baseline", "base.json", "."], tree)
    assert result.exit_code == 2
    assert "JC002" not in (tree / "base.json").read_text()
    result = run_cli(["check", "--no-cache", "--baseline", "base.json", "--output-format", "json", "."], tree)
    assert result.exit_code == 2 and [f["code"] for f in json.loads(result.stdout)] == ["JC002"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.timeout(60)
def test_special_files_are_reported_and_never_read(tmp_path: Path) -> None:
    """A FIFO named like a module (reading it would block), symlink loops and a broken file beside
    a job: each is a JC000, nothing hangs, every output format renders, and `--exit-zero` exits 0
    with the cache and without, given as a folder or by name."""
    root = write_tree(tmp_path / "proj", {"broken.py": "def (:\n", "tasks.py": RETRIED_POST})
    os.mkfifo(root / "fifo.py")
    os.symlink("loop.py", root / "loop.py")
    os.symlink("b.py", root / "a.py")
    os.symlink("a.py", root / "b.py")
    unreadable = {"fifo.py", "loop.py", "a.py", "b.py"}
    for cache in (["--no-cache"], [], []):  # cold, then recorded, then read back
        result = run_cli(["check", "--exit-zero", "--select", "JC201", "--output-format", "json", *cache, "."], root)
        assert result.exit_code == 0, result.stderr
        found = {(f["code"], Path(f["path"]).name) for f in json.loads(result.stdout)}
        assert found == {("JC000", name) for name in unreadable | {"broken.py"}} | {("JC201", "tasks.py")}
    for fmt in ("text", "concise", "sarif", "github", "gitlab"):
        assert run_cli(["check", "--exit-zero", "--no-cache", "--output-format", fmt, "."], root).exit_code == 0
    assert run_cli(["jobs", "--no-cache", "."], root).exit_code == 0
    given = run_cli(["check", "--exit-zero", "--no-cache", "--output-format", "json", "fifo.py", "loop.py"], root)
    assert given.exit_code == 0
    assert {Path(f["path"]).name for f in json.loads(given.stdout)} == {"fifo.py", "loop.py"}
    assert "not a regular file" in given.stdout
