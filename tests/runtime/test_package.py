"""Packaging of jobcheck.runtime: lazy optional imports and the pytest plugin in a fresh session."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib import import_module, metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def test_importing_runtime_does_not_import_psycopg_or_redis() -> None:
    code = "import sys, jobcheck.runtime; print(sorted(m for m in ('psycopg', 'redis') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_pyproject_declares_the_plugin_entry_point() -> None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    target = data["project"]["entry-points"]["pytest11"]["jobcheck"]
    assert target == "jobcheck.runtime.pytest_plugin"
    assert hasattr(import_module(target), "jobcheck_harness")


def _plugin_flag() -> str:
    """Name the plugin the way this environment knows it (entry point if installed)."""
    installed = any(ep.name == "jobcheck" for ep in metadata.entry_points(group="pytest11"))
    return "jobcheck" if installed else "jobcheck.runtime.pytest_plugin"


def test_plugin_fixture_and_answers_in_a_fresh_pytest_session(tmp_path: Any) -> None:
    (tmp_path / "test_job.py").write_text(textwrap.dedent('''
        import sqlite3
        from jobcheck.runtime import record_effect, sqlite_state

        def setup(env):
            db = sqlite3.connect(env.path("d.db"))
            db.execute("CREATE TABLE sent (who TEXT)")
            db.commit()

        def job(who, env):
            db = sqlite3.connect(env.path("d.db"))
            if not db.execute("SELECT 1 FROM sent WHERE who = ?", (who,)).fetchone():
                record_effect("push", who)
                db.execute("INSERT INTO sent VALUES (?)", (who,))
                db.commit()

        def test_push(jobcheck_harness):
            h = jobcheck_harness(job, "ada", setup=setup, observe=[sqlite_state(lambda e: e.path("d.db"), sent="SELECT who FROM sent")])
            h.verify(["replay", "concurrent"])
    '''))
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", _plugin_flag(), "--jobcheck-answers", "-q", "-p", "no:cacheprovider", "test_job.py"],
        cwd=tmp_path, capture_output=True, text=True, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
    )
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert "FiveQuestionsError: jobcheck: 1 of 2 checks failed" in out
    assert "can it run twice: no — 2 × push ada (expected 1)" in out
    assert "jobcheck: the five questions" in out  # the --jobcheck-answers summary
    assert "test_job.py::test_push: is it idempotent: yes" in out
