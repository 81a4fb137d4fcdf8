"""Running the CLI in-process for tests, with stdout and stderr apart (click 8.1 and 8.2+)."""

from __future__ import annotations

import inspect
import os
from pathlib import Path

from click.testing import CliRunner

from jobcheck.cli import main


def run_cli(args: list[str], cwd: Path):
    options = {"mix_stderr": False} if "mix_stderr" in inspect.signature(CliRunner.__init__).parameters else {}
    old = Path.cwd()
    os.chdir(cwd)
    try:
        return CliRunner(**options).invoke(main, args, catch_exceptions=False)
    finally:
        os.chdir(old)


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
