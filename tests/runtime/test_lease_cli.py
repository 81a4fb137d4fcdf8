"""`jobcheck lease show|clear|stress` (the click group the main CLI mounts as `lease`)."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from click.testing import CliRunner

from jobcheck.cli import main
from jobcheck.runtime import open_backend
from jobcheck.runtime.cli import runtime_cli


def invoke(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(runtime_cli, list(args), env=env, catch_exceptions=False)


def test_group_is_named_lease() -> None:
    assert runtime_cli.name == "lease"
    assert set(runtime_cli.commands) == {"show", "clear", "stress"}


def test_show_and_clear_a_stuck_lease(lease_url: str, resource: str) -> None:
    backend = open_backend(lease_url)
    try:
        stuck = backend.acquire(resource, 300)
        shown = invoke("show", "--backend", lease_url, resource)
        assert shown.exit_code == 0, shown.output
        header, row = shown.output.splitlines()
        assert header.split()[:4] == ["RESOURCE", "TOKEN", "STATE", "HOLDER"]
        assert row.split()[:4] == [resource, "1", "held", stuck.holder]

        cleared = invoke("clear", "--backend", lease_url, resource)
        assert cleared.exit_code == 0
        assert cleared.output == f"{resource}: cleared lease held by {stuck.holder} (token 1)\n"
        assert not backend.get(resource).held
        assert backend.acquire(resource, 5).token == 2  # tokens keep growing after a clear

        again = invoke("clear", "--backend", lease_url, f"{resource}-unknown")
        assert again.exit_code == 1
        assert "no lease was ever taken" in again.output
    finally:
        backend.close()


def test_show_everything_from_the_environment(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'l.db'}"
    backend = open_backend(url)
    backend.release(backend.acquire("a", 5))
    backend.acquire("b", 60)
    result = invoke("show", env={"JOBCHECK_LEASE_BACKEND": url})
    assert result.exit_code == 0
    rows = [line.split()[:3] for line in result.output.splitlines()[1:]]
    assert rows == [["a", "1", "free"], ["b", "1", "held"]]
    open_backend(f"sqlite:///{tmp_path / 'empty.db'}").list()  # creates the store
    empty = invoke("show", "--backend", f"sqlite:///{tmp_path / 'empty.db'}")
    assert empty.output == "no leases\n"
    assert invoke("show", "--backend", "mysql://x").exit_code == 2  # usage error
    assert invoke("show").exit_code == 2  # no backend given


def test_stress_command(tmp_path: Any) -> None:
    result = invoke("stress", "--backend", f"sqlite:///{tmp_path / 's.db'}", "--processes", "2", "--cycles", "15")
    assert result.exit_code == 0, result.output
    header, _, row = result.output.splitlines()
    assert header.split()[:3] == ["backend", "procs", "cycles"]
    assert row.split()[:3] == ["sqlite", "2", "30"] and row.split()[-1] == "yes"


def test_a_missing_sqlite_store_is_an_error_and_is_not_created(tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    for command in (["show"], ["show", "some-resource"], ["clear", "some-resource"]):
        result = CliRunner().invoke(runtime_cli, [*command, "--backend", "sqlite:///typo.db"])
        assert result.exit_code == 2, result.output
        assert result.stderr == "jobcheck: no such lease database: typo.db\n"
        assert result.stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_an_existing_store_is_shown_without_being_changed(tmp_path: Any) -> None:
    path = tmp_path / "app.db"
    sqlite3.connect(path).close()  # an empty database: no lease table, rollback journal
    before = path.read_bytes()
    result = CliRunner().invoke(runtime_cli, ["show", "--backend", f"sqlite:///{path}"])
    assert result.exit_code == 2
    assert result.stderr.startswith("jobcheck: cannot use the lease store sqlite:///") and "no such table" in result.stderr
    assert path.read_bytes() == before and not (tmp_path / "app.db-wal").exists()


@pytest.mark.parametrize(
    "url", ["redis://127.0.0.1:1/0", "postgresql://jobcheck:secret@127.0.0.1:1/jobcheck?connect_timeout=3"], ids=["redis", "postgres"]
)
def test_a_server_that_is_down_is_one_line_and_exit_2(url: str) -> None:
    for command in (["show"], ["clear", "some-resource"], ["stress", "--processes", "1", "--cycles", "1"]):
        result = CliRunner().invoke(main, ["lease", *command, "--backend", url])
        assert result.exit_code == 2, result.output
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
        assert result.stderr.startswith("jobcheck: cannot use the lease store ") and "refused" in result.stderr
        assert "secret" not in result.stderr
