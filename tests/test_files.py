"""Which files a run looks at: exclusions by name, by path from the configuration's folder, and
paths given explicitly."""

from __future__ import annotations

import os
from pathlib import Path

from jobcheck.analysis import files

from .cli_support import write_tree

TREE = {
    "app/tasks.py": "",
    "app/legacy/old.py": "",
    "app/gen/models_pb2.py": "",
    "app/gen/keep.py": "",
    "app/notes.txt": "",
    "app/__pycache__/tasks.py": "",
    "app/.venv/lib.py": "",
    "app/pkg.egg-info/setup.py": "",
    "scripts/run.py": "",
}


def _found(root: Path, paths: list[str], exclude: list[str], force: bool = False) -> list[str]:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        return [display for _, display in files.discover(paths, root, exclude, force)]
    finally:
        os.chdir(cwd)


def test_exclusions_by_name_by_rooted_path_and_skipped_folders(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    exclude = ["legacy", "app/gen/*_pb2.py"]
    expected = ["app/gen/keep.py", "app/tasks.py", "scripts/run.py"]
    assert _found(tmp_path, ["."], exclude) == expected
    # Given a folder below the configuration's: names still match below it, and a pattern with a
    # slash matches the path from the configuration's folder.
    assert _found(tmp_path, ["app"], exclude) == ["app/gen/keep.py", "app/tasks.py"]
    assert _found(tmp_path, ["app/gen"], exclude) == ["app/gen/keep.py"]
    assert _found(tmp_path, ["."], []) == [
        "app/gen/keep.py", "app/gen/models_pb2.py", "app/legacy/old.py", "app/tasks.py", "scripts/run.py",
    ]


def test_a_file_given_explicitly_is_checked_unless_forced(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    assert _found(tmp_path, ["app/legacy/old.py"], ["legacy"]) == ["app/legacy/old.py"]
    assert _found(tmp_path, ["app/legacy/old.py"], ["legacy"], force=True) == []
    assert _found(tmp_path, ["app/legacy"], ["legacy"], force=True) == []


def test_folders_listed_are_collected_and_paths_are_absolute(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    folders: set[str] = set()
    found = files.discover([str(tmp_path / "app")], tmp_path, ["legacy"], False, folders)
    assert all(path.is_absolute() and path.is_file() for path, _ in found)
    assert {Path(f) for f in folders} == {tmp_path / "app", tmp_path / "app" / "gen"}
