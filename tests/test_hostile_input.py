"""jobcheck on a generated corpus of hostile inputs (`hostile_corpus`), as a CI runner would meet
them in a pull request: nothing hangs (every run has a timeout), nothing crashes, nothing outside
the project is printed, every other file is still checked, and the findings are the same with and
without the cache, in every output format."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from . import hostile_corpus

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs, symlinks and byte file names")


def _run(args: list[str], cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    # A strict UTF-8 stdout (as under an en_US.UTF-8 locale): file names that are not UTF-8 must
    # not make printing fail.
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", **(env or {})}
    return subprocess.run([sys.executable, "-m", "jobcheck.cli", *args], cwd=cwd, capture_output=True, timeout=120,
                          env=env)


def _findings(done: subprocess.CompletedProcess) -> set[tuple[str, str]]:
    assert done.returncode == 1, done.stderr.decode(errors="replace")
    return {(f["path"], f["code"]) for f in json.loads(done.stdout)}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    built = hostile_corpus.build(tmp_path_factory.mktemp("hostile"))
    yield built
    hostile_corpus.unlock(built)


def test_every_file_is_checked_or_reported_with_and_without_the_cache(corpus, tmp_path: Path) -> None:
    expected = {(path, code) for path, codes in corpus.expected.items() for code in codes}
    fresh = _findings(_run(["check", "--no-cache", "--output-format", "json", "."], corpus.root))
    assert fresh == expected
    cache = {"JOBCHECK_CACHE_DIR": str(tmp_path / "cache")}
    assert _findings(_run(["check", "--output-format", "json", "."], corpus.root, cache)) == fresh  # cold
    time.sleep(2.1)  # out of the window where stamps are racy: the next runs may use the record
    assert _findings(_run(["check", "--output-format", "json", "."], corpus.root, cache)) == fresh  # recorded
    assert _findings(_run(["check", "--output-format", "json", "."], corpus.root, cache)) == fresh  # read back


@pytest.mark.parametrize("fmt", ["text", "concise", "sarif", "gitlab", "github", "json"])
@pytest.mark.parametrize("cached", [False, True])
def test_no_format_crashes_or_prints_what_lies_outside(corpus, tmp_path: Path, fmt: str, cached: bool) -> None:
    options = [] if cached else ["--no-cache"]
    done = _run(["check", *options, "--output-format", fmt, "."], corpus.root,
                {"JOBCHECK_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 1, done.stderr.decode(errors="replace")
    assert done.stderr == b""
    # The JSON formats are valid UTF-8 whatever the file names; the others write a name's own bytes.
    output = done.stdout.decode("utf-8", "strict" if fmt in ("json", "sarif", "gitlab") else "surrogateescape")
    assert hostile_corpus.SECRET not in output and "root:x:0:0" not in output
    if fmt in ("sarif", "gitlab"):
        document = json.loads(output)
        results = document["runs"][0]["results"] if fmt == "sarif" else document
        prints = [r["partialFingerprints"]["jobcheck/v1"] if fmt == "sarif" else r["fingerprint"] for r in results]
        assert len(set(prints)) == len(prints) == sum(len(codes) for codes in corpus.expected.values())


def test_the_job_inventory_lists_the_jobs_beside_hostile_files(corpus) -> None:
    done = _run(["jobs", "--no-cache", "--format", "json", "."], corpus.root)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    listed = {job["path"] for job in json.loads(done.stdout)["jobs"]}
    assert {path for path, codes in corpus.expected.items() if codes == {"JC201"}} <= listed


def test_a_recorded_run_does_not_outlive_a_change_of_permissions(tmp_path: Path) -> None:
    """`chmod 000` changes neither a file's time nor its size: the record of the last run must
    still not be read back, so the file is reported as unreadable (when it is: root reads it)."""
    from jobcheck import config
    from jobcheck.cache.store import Cache
    from jobcheck.engine import cached_run

    root = tmp_path / "proj"
    job = root / "job.py"
    root.mkdir()
    job.write_text(hostile_corpus.RETRIED_EMAIL.format(name="job"), encoding="utf-8")
    past = time.time_ns() - 100 * 10**9  # beyond the window where stamps are racy
    os.utime(job, ns=(past, past))
    os.utime(root, ns=(past, past))
    cfg, store = config.load(start=root), Cache(tmp_path / "cache")

    def run():
        return cached_run.check_paths([str(root)], cfg, cache=store, workers=1)

    assert not run().reused and run().reused  # recorded, then read back
    os.chmod(job, 0)
    try:
        again = run()
        assert not again.reused
        codes = {f.code for f in again.findings}
        assert codes == ({"JC201", "JC501"} if os.access(job, os.R_OK) else {"JC000"})
    finally:
        os.chmod(job, 0o644)


def test_a_package_importing_a_name_from_a_missing_submodule_of_itself_ends(tmp_path: Path) -> None:
    """`from selfref.Proxy import Proxy` in `selfref/__init__.py` with no `selfref/Proxy.py`: read as
    context (only `jobs/` is checked), `selfref.Proxy.renew` leads to `selfref.Proxy.Proxy.renew`,
    and so on for ever unless a name is followed only so deep."""
    (tmp_path / "selfref").mkdir()
    (tmp_path / "jobs").mkdir()
    (tmp_path / "pyproject.toml").write_text("[tool.jobcheck]\n", encoding="utf-8")
    (tmp_path / "selfref/__init__.py").write_text("from selfref.Proxy import Proxy\n", encoding="utf-8")
    (tmp_path / "jobs/uses.py").write_text("from selfref import Proxy\n\n\ndef renew():\n    Proxy.renew()\n",
                                           encoding="utf-8")
    started = time.monotonic()
    done = _run(["check", "--no-cache", "jobs"], tmp_path)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert time.monotonic() - started < 60
