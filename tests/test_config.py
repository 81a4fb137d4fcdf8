"""Configuration that cannot be used is an error that names the key (exit 2, one line): a typo or
an unset variable in a linter's configuration must not silently change what is checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobcheck import config
from jobcheck.config import ConfigError

from .cli_support import run_cli, write_tree

NESTED = "[tool.jobcheck]\nguards = " + "[" * 5000 + "]" * 5000 + "\n"


@pytest.mark.parametrize(("toml", "says"), [
    ("tool = 3\n", "`tool` must be a table"),
    ('tool = "jobcheck"\n', "`tool` must be a table"),
    ("[tool]\njobcheck = 3\n", "[tool.jobcheck] must be a table"),
    (NESTED, "nested too deeply"),
    ("[tool.jobcheck]\nguards = [[[1]]]\n", "`tool.jobcheck.guards` must be a list of strings, it holds an array"),
    ('[tool.jobcheck.effects]\nEmail = ["myapp.mail"]\n', "unknown effect kind `tool.jobcheck.effects.Email` (known: email,"),
    ('[tool.jobcheck.effects]\nteleport = ["myapp.beam"]\n', "unknown effect kind `tool.jobcheck.effects.teleport`"),
    ('[tool.jobcheck]\ndocstring-section = ":"\n', "`tool.jobcheck.docstring-section` must name a header"),
    ('[tool.jobcheck]\ndocstring-section = "A\\nB"\n', "`tool.jobcheck.docstring-section` must name a header"),
    ('[tool.jobcheck]\nselect = [""]\n', "`tool.jobcheck.select` holds an empty rule code"),
    ('[tool.jobcheck]\nignore = [" "]\n', "`tool.jobcheck.ignore` holds an empty rule code"),
    ('[tool.jobcheck.per-file-ignores]\n"a.py" = [""]\n', "holds an empty rule code"),
    ('[tool.jobcheck]\nmax-file-size = "10 parsecs"\n', "`tool.jobcheck.max-file-size` must be a positive number"),
    ("[tool.jobcheck]\nmax-file-size = 0\n", "`tool.jobcheck.max-file-size` must be a positive number"),
    ("[tool.jobcheck]\nmax-file-size = true\n", "`tool.jobcheck.max-file-size` must be a positive number"),
    ('[tool.jobcheck]\nrespect-gitignore = "no"\n', "`tool.jobcheck.respect-gitignore` must be true or false"),
])
def test_unusable_configuration_is_an_error_naming_the_key(tmp_path: Path, toml: str, says: str) -> None:
    (tmp_path / "pyproject.toml").write_text(toml, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        config.load(start=tmp_path)
    assert says in str(raised.value)
    assert "\n" not in str(raised.value) and len(str(raised.value)) < 400


def test_the_command_line_says_it_in_one_line_and_exits_2(tmp_path: Path) -> None:
    write_tree(tmp_path, {"job.py": "x = 1\n"})
    for toml in ("tool = 3\n", NESTED, '[tool.jobcheck.effects]\nteleport = ["a.b"]\n'):
        (tmp_path / "pyproject.toml").write_text(toml, encoding="utf-8")
        result = run_cli(["check", "--no-cache", "."], tmp_path)
        assert result.exit_code == 2
        assert result.stderr.startswith("jobcheck: configuration error:") and result.stderr.count("\n") == 1
        assert "Traceback" not in result.stderr and "bug" not in result.stderr


@pytest.mark.parametrize(("value", "size"), [
    (6_000_000, 6_000_000), ("10MB", 10 << 20), ("512 KB", 512 << 10), ("1.5MiB", 3 << 19), ("2gb", 2 << 30),
    ("100", 100),
])
def test_max_file_size_in_bytes_or_with_a_unit(tmp_path: Path, value, size: int) -> None:
    literal = f'"{value}"' if isinstance(value, str) else str(value)
    (tmp_path / "pyproject.toml").write_text(f"[tool.jobcheck]\nmax-file-size = {literal}\n", encoding="utf-8")
    assert config.load(start=tmp_path).max_file_size == size


def test_defaults_and_the_valid_keys(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jobcheck]\nrespect-gitignore = false\ndocstring-section = "Operations:"\n'
        '[tool.jobcheck.effects]\nemail = ["myapp.mail.deliver"]\nenqueue = ["myapp.queue.put"]\n', encoding="utf-8")
    loaded = config.load(start=tmp_path)
    assert loaded.respect_gitignore is False and loaded.docstring_section == "Operations"
    assert loaded.effects == {"email": ["myapp.mail.deliver"], "enqueue": ["myapp.queue.put"]}
    default = config.Config()
    assert default.respect_gitignore is True and default.max_file_size == 10 * 1024 * 1024


def test_the_effect_kinds_accepted_are_the_catalogs() -> None:
    from jobcheck.effects.catalog import EFFECTS, EXTERNAL_KINDS

    assert set(config.EFFECT_KINDS) == {*EXTERNAL_KINDS, *EFFECTS}


@pytest.mark.parametrize("value", ["", " ", "JC201,", ",JC1"])
def test_an_empty_code_on_the_command_line_is_an_error(value: str) -> None:
    with pytest.raises(ConfigError, match="empty rule code"):
        config.command_line_codes(value, "--select")


def test_codes_on_the_command_line() -> None:
    assert config.command_line_codes(None, "--select") is None
    assert config.command_line_codes(" jc201, JC1 ", "--select") == ["JC201", "JC1"]
