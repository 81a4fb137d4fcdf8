"""The pre-commit hooks, run by the real `pre-commit run` from a project's configuration.

pre-commit installs the hook repository into its own virtualenv (a pip install from a git clone),
so this is what a user gets. It only sees committed files, so the test snapshots the working tree
(tracked and untracked, not ignored) into a throwaway repository and names that repository and
its commit in the project's `.pre-commit-config.yaml`: the hooks are tested as they are now, not
as of the last commit. One pre-commit home serves the module, so the hooks' environment is built
once (`try-repo` would build a new one per call).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GIT_ID = ["-c", "user.name=jobcheck tests", "-c", "user.email=tests@jobcheck.invalid", "-c", "commit.gpgsign=false"]

BAD = '''from celery import shared_task
from django.core.mail import send_mail


@shared_task(autoretry_for=(Exception,), max_retries=3)
def notify(address):
    """Tell a user.

    Reliability:
        Runs twice: sends twice.
        Overlaps: no.
        Dies mid-run: the next delivery sends it.
        Retries: three.
        Idempotent: no.
    """
    send_mail("Hi", "body", None, [address])
'''

CLEAN = '''def add(a, b):
    return a + b
'''


def _git(*args: str, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return subprocess.run(["git", *GIT_ID, *args], cwd=cwd, env=env, check=True, capture_output=True, text=True, timeout=120).stdout


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> Path:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs git and a git checkout of jobcheck")
    listed = _git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=REPO).split("\0")
    snapshot = tmp_path_factory.mktemp("hook-repo")
    for name in filter(None, listed):
        source = REPO / name
        if not (source.is_file() or source.is_symlink()):
            continue  # deleted in the working tree
        target = snapshot / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target, follow_symlinks=False)  # jobcheck/rules is a symlink
    _git("init", "-q", cwd=snapshot)
    _git("add", "-A", cwd=snapshot)
    _git("commit", "-q", "-m", "snapshot", cwd=snapshot)
    return snapshot


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "legacy").mkdir()
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "clean.py").write_text(CLEAN)
    (tmp_path / "legacy" / "old.py").write_text(BAD)
    (tmp_path / "pyproject.toml").write_text('[tool.jobcheck]\nextend-exclude = ["legacy"]\n')
    _git("init", "-q", cwd=tmp_path)
    _git("add", "-A", cwd=tmp_path)
    return tmp_path


def _run_hook(hook_repo: Path, home: Path, hook: str, project: Path, *files: str) -> subprocess.CompletedProcess:
    rev = _git("rev-parse", "HEAD", cwd=hook_repo).strip()
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {hook_repo.as_uri()}\n  rev: {rev}\n  hooks:\n  - id: jobcheck\n  - id: jobcheck-fix\n"
    )
    _git("add", ".pre-commit-config.yaml", cwd=project)  # pre-commit refuses an unstaged configuration
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["PRE_COMMIT_COLOR"] = "never"
    env["PRE_COMMIT_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", hook, "--files", *files],
        cwd=project, env=env, capture_output=True, text=True, timeout=600,
    )


def test_manifest_is_valid_for_pre_commit() -> None:
    from pre_commit.clientlib import load_manifest

    hooks = {hook["id"]: hook for hook in load_manifest(str(REPO / ".pre-commit-hooks.yaml"))}
    assert set(hooks) == {"jobcheck", "jobcheck-fix"}
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["types"] == ["python"]
        assert hook["require_serial"] is True
        assert hook["entry"].split()[:2] == ["jobcheck", "check"]
        assert "--force-exclude" in hook["entry"].split()
    assert "--fix" in hooks["jobcheck-fix"]["entry"].split()


def test_hook_fails_on_a_finding_and_passes_on_clean_and_excluded_files(hook_repo: Path, pre_commit_home: Path,
                                                                      project: Path) -> None:
    failed = _run_hook(hook_repo, pre_commit_home, "jobcheck", project, "bad.py")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "jobcheck" in failed.stdout and "Failed" in failed.stdout
    assert "bad.py:16:5: JC201 [retry-on-unguarded-effect]" in failed.stdout

    # legacy/ is excluded in the project's configuration; pre-commit names it explicitly, and
    # --force-exclude keeps it excluded.
    passed = _run_hook(hook_repo, pre_commit_home, "jobcheck", project, "clean.py", "legacy/old.py")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


def test_fix_hook_runs(hook_repo: Path, pre_commit_home: Path, project: Path) -> None:
    help_text = subprocess.run([sys.executable, "-m", "jobcheck.cli", "check", "--help"], capture_output=True, text=True).stdout
    if "--fix" not in help_text:
        pytest.skip("`jobcheck check --fix` is not implemented yet")
    undocumented = project / "undocumented.py"
    undocumented.write_text("from celery import shared_task\n\n\n@shared_task\ndef tidy(n):\n    return n\n")
    _git("add", "undocumented.py", cwd=project)
    ran = _run_hook(hook_repo, pre_commit_home, "jobcheck-fix", project, "undocumented.py")
    # The fix inserts the five-questions section with placeholders, which JC502 still reports:
    # the hook fails and pre-commit sees the file modified.
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert "jobcheck (fix)" in ran.stdout and "Failed" in ran.stdout
    assert "files were modified by this hook" in ran.stdout
    assert "Reliability:" in undocumented.read_text()
    assert "JC502" in ran.stdout
