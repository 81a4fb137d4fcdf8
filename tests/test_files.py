"""Which files a run looks at: exclusions by name, by path from the configuration's folder, and
paths given explicitly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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


def test_scripts_with_no_extension_are_read_when_their_first_line_runs_python(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "bin/fetchmail": "#!/usr/bin/env python3\nimport sys\n",
        "bin/sync-all": "#!/usr/local/bin/python3.12 -u\n",
        "bin/deploy": "#!/bin/sh\necho python\n",  # a shell script that mentions python later
        "bin/notes": "python is mentioned, but no shebang\n",
        "bin/binary": "\x7fELF python",
        "Makefile": "all:\n\tpython -m build\n",
        "bin/legacy/fetch": "#!/usr/bin/python\n",
    })
    os.mkfifo(tmp_path / "bin/pipe")  # never opened: listing must not block on it
    os.symlink(tmp_path / "bin/fetchmail", tmp_path / "bin/fetch-link")  # a link: not followed to guess
    assert _found(tmp_path, ["."], ["legacy"]) == ["bin/fetchmail", "bin/sync-all"]
    # Given by name, any file is read as Python, as before.
    assert _found(tmp_path, ["bin/deploy"], []) == ["bin/deploy"]


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


def _listing(root: Path, paths: list[str], **options) -> tuple[list[str], dict[str, str]]:
    """(displays found, display -> reason refused), listed from `root`."""
    refused: list[files.Refused] = []
    cwd = os.getcwd()
    os.chdir(root)
    try:
        found = files.discover(paths, root, [], refused=refused, **options)
    finally:
        os.chdir(cwd)
    return [display for _, display in found], {r.display: r.reason for r in refused}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and symlinks")
def test_special_files_and_symlinks_leading_out_are_refused_unread(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "elsewhere", {"secret.py": "TOKEN = 'hunter2'\n"})
    root = write_tree(tmp_path / "proj", {"app/tasks.py": "", "lib/shared.py": ""})
    os.mkfifo(root / "app/fifo.py")
    os.symlink("/dev/zero", root / "app/zero.py")
    os.symlink(outside / "secret.py", root / "app/secret.py")
    os.symlink(root / "lib/shared.py", root / "app/shared.py")  # inside the project: read
    os.symlink(outside, root / "app/linked")  # a folder symlink: not followed, as before
    found, refused = _listing(root, ["."])
    assert found == ["app/shared.py", "app/tasks.py", "lib/shared.py"]
    assert refused == {
        "app/fifo.py": "not a regular file (a FIFO): not read",
        "app/zero.py": "a symbolic link to a file outside the checked folders: not read",
        "app/secret.py": "a symbolic link to a file outside the checked folders: not read",
    }
    # Given by name (pre-commit passes every file so): refused alike; the project's own link is read.
    found, refused = _listing(root, ["app/secret.py", "app/zero.py", "app/shared.py"])
    assert found == ["app/shared.py"] and set(refused) == {"app/secret.py", "app/zero.py"}
    # Checking only app/, a link into lib/ stays inside the project (the configuration's folder).
    assert _listing(root, ["app"])[0] == ["app/shared.py", "app/tasks.py"]


def test_files_over_the_size_limit_are_refused_unread(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"small.py": "x = 1\n", "data.py": "ROWS = [" + "1, " * 4000 + "]\n"})
    found, refused = _listing(root, ["."], max_file_size=10_000)
    assert found == ["small.py"]
    assert refused == {"data.py": "11.7 KB, larger than max-file-size (9.8 KB): not read "
                                  "(raise `max-file-size` in [tool.jobcheck] to check it)"}
    assert _listing(root, ["data.py"], max_file_size=10_000)[1].keys() == {"data.py"}  # given by name too
    assert _listing(root, ["."])[0] == ["data.py", "small.py"]  # the default limit is megabytes


def test_a_folder_that_cannot_be_listed_is_reported(tmp_path: Path, monkeypatch) -> None:
    root = write_tree(tmp_path, {"app/tasks.py": "", "app/locked/hidden.py": ""})
    real_scandir = os.scandir

    def scandir(path):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(files.os, "scandir", scandir)
    found, refused = _listing(root, ["."])
    assert found == ["app/tasks.py"]
    assert refused == {"app/locked": "cannot list this folder (Permission denied): the files in it are not checked"}


def _repository(root: Path) -> Path:
    write_tree(root, {
        ".gitignore": "gen/\n*_pb2.py\n",
        "app/tasks.py": "", "app/models_pb2.py": "", "gen/client.py": "",
        "app/vendor/.gitignore": "*\n!keep.py\n", "app/vendor/lib.py": "", "app/vendor/keep.py": "",
        "app/local.py": "",
    })
    (root / ".git" / "info").mkdir(parents=True)
    (root / ".git" / "info" / "exclude").write_text("local.py\n", encoding="utf-8")
    return root


def test_gitignore_is_respected_nested_and_with_info_exclude(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    consulted: list[str] = []
    found = files.discover([str(root)], root, [], consulted=consulted)
    assert [Path(d).relative_to(root).as_posix() for _, d in found] == ["app/tasks.py", "app/vendor/keep.py"]
    assert sorted(Path(p).relative_to(root).as_posix() for p in consulted) == [
        ".git/info/exclude", ".gitignore", "app/vendor/.gitignore"]
    # Rules above the folder given apply too; `respect_gitignore=False` turns them all off.
    assert _listing(root, ["app"])[0] == ["app/tasks.py", "app/vendor/keep.py"]
    assert _listing(root, ["."], respect_gitignore=False)[0] == [
        "app/local.py", "app/models_pb2.py", "app/tasks.py", "app/vendor/keep.py", "app/vendor/lib.py", "gen/client.py"]


def test_an_ignored_path_given_explicitly_is_checked_unless_forced(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    assert _listing(root, ["gen", "app/models_pb2.py"])[0] == ["app/models_pb2.py", "gen/client.py"]
    for given in (["gen"], ["gen/client.py"], ["app/models_pb2.py"], ["app/vendor/lib.py"]):
        assert _listing(root, given, force_exclude=True)[0] == [], given
    assert _listing(root, ["app/tasks.py"], force_exclude=True)[0] == ["app/tasks.py"]


def test_gitignore_outside_a_repository_changes_nothing(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {".gitignore": "*.py\n", "job.py": ""})
    assert _listing(root, ["."])[0] == ["job.py"]


def test_names_that_are_not_utf8_are_listed(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path) + b"/d\xff"
    try:
        os.mkdir(folder)
    except (OSError, UnicodeError):
        pytest.skip("the file system does not take names that are not UTF-8")
    for name in (folder + b"/m.py", os.fsencode(tmp_path) + b"/x\xff.py"):
        with open(name, "w") as fh:
            fh.write("x = 1\n")
    assert _listing(tmp_path, ["."])[0] == ["d\udcff/m.py", "x\udcff.py"]
