"""Which files a run looks at: the paths given, recursively, minus what is never source, what is
excluded and what git ignores; and the files refused unread (reported as JC000 with a reason that
never quotes them: special files, symlinks leading out of the checked folders, files too large).
"""

from __future__ import annotations

import fnmatch
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..config import DEFAULT_MAX_FILE_SIZE
from .schedule_text import is_schedule_file
from .gitignore import GitIgnore
from .source import read_source

# Folders that hold no project source: VCS data, virtualenvs, caches, build output.
SKIP_DIRS = {
    ".git", ".hg", ".svn", ".bzr", "__pycache__", ".venv", "venv", ".env", "env", ".tox", ".nox",
    "node_modules", "build", "dist", "site-packages", ".mypy_cache", ".pytest_cache", ".ruff_cache",
    ".jobcheck_cache", ".eggs", "__pypackages__", ".idea", ".vscode",
}


@dataclass(frozen=True)
class Refused:
    """A file (or a folder) not read, and why, in words that say nothing of what it holds."""

    path: str  # absolute, as listed
    display: str
    reason: str


def _excluded(rel: str, patterns: list[str]) -> bool:
    parts = rel.split("/")
    for pattern in patterns:
        pattern = pattern.rstrip("/")
        if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(rel, pattern + "/*"):
            return True
        if "/" not in pattern and any(fnmatch.fnmatch(p, pattern) for p in parts):
            return True
    return False


def discover(paths: list[str], root: Path, exclude: list[str], force_exclude: bool = False,
             folders: set[str] | None = None, *, respect_gitignore: bool = True,
             max_file_size: int | None = DEFAULT_MAX_FILE_SIZE, refused: list[Refused] | None = None,
             consulted: list[str] | None = None, texts: list[tuple[Path, str]] | None = None) -> list[tuple[Path, str]]:
    """(absolute path, display path) for every Python file under `paths` (a `.py` file, or a script
    with no extension that says it runs Python), sorted, deduplicated.

    Display paths are as given: relative where the input was relative. As in ruff, a path given
    explicitly is checked even if excluded or git-ignored (unless `force_exclude`, which pre-commit
    hooks use, since pre-commit passes every file explicitly); inside it, exclusions apply to what
    is found, matched against the path relative to the configuration's folder and to each folder
    name below the given path. Files that must not be read (see `refusal`), and folders that
    cannot be listed, go to `refused` instead. `folders`, if given, collects every folder listed
    (and looked into for a `.gitignore`); `consulted`, the ignore files read; `texts`, the files
    beside them that may hold crontab lines (`schedule_text.is_schedule_file`), under the same
    exclusions, found only in the folders walked.
    """
    out: dict[Path, str] = {}
    root = root.resolve()
    root_prefix = str(root).rstrip(os.sep) + os.sep
    rooted = [pat for pat in exclude if "/" in pat]
    gitignore = GitIgnore() if respect_gitignore else None
    refused = [] if refused is None else refused
    roots = _checked_roots(paths, root)

    def rel_to(p: Path, base: Path) -> str:
        try:
            return p.relative_to(base).as_posix()
        except ValueError:
            return p.as_posix()

    def excluded(path: str, below: str) -> bool:
        """`path` (absolute, as walked) is `below` under the given folder (posix)."""
        if _excluded(below, exclude):
            return True
        if not rooted:
            return False
        from_root = path[len(root_prefix):] if path.startswith(root_prefix) else path
        from_root = from_root.replace(os.sep, "/")
        return from_root != below and any(fnmatch.fnmatch(from_root, pat) for pat in rooted)

    def add(path: str, display: str, is_symlink: bool) -> None:
        why = refusal(path, is_symlink, roots, max_file_size)
        if why is None:
            out.setdefault(Path(path), display)
        else:
            refused.append(Refused(path, display, why))

    for given in paths:
        absolute = Path(os.path.realpath(given))  # not resolve(): a symlink loop must not raise
        is_dir = absolute.is_dir()
        forced_out = force_exclude and (
            (absolute != root and _excluded(rel_to(absolute, root), exclude))
            or (gitignore is not None and gitignore.ignored_or_inside_ignored(str(absolute), is_dir)))
        if forced_out:
            continue
        if not is_dir:  # a file, or anything else given by name: read (and reported) as one
            add(str(absolute), os.path.normpath(given), os.path.islink(given))
            continue
        top = str(absolute)
        # A folder given explicitly is listed even if git ignores it: then only the rules found
        # in it and below apply (those above would ignore everything in it).
        below = top if gitignore is not None and gitignore.ignored_or_inside_ignored(top, True) else None
        # Paths are handled as strings here: pathlib costs more than the walk on big trees.
        pending = [(top, "")]
        while pending:
            folder, prefix = pending.pop()
            try:
                with os.scandir(folder) as listing:
                    entries = sorted(listing, key=lambda e: e.name)
            except OSError as exc:
                display = os.path.normpath(os.path.join(given, prefix)) if prefix else os.path.normpath(given)
                refused.append(Refused(folder, display, f"cannot list this folder ({exc.strerror or exc}): "
                                                        "the files in it are not checked"))
                continue
            if folders is not None:
                folders.add(folder)
            subfolders = []
            for entry in entries:
                name, path = entry.name, entry.path
                try:
                    is_folder = entry.is_dir()
                except OSError:
                    is_folder = False
                if is_folder:
                    if (entry.is_symlink() or name in SKIP_DIRS or name.endswith(".egg-info")
                            or (exclude and excluded(path, prefix + name))
                            or (gitignore is not None and gitignore.ignored(path, True, below))):
                        continue
                    subfolders.append((path, prefix + name + "/"))
                elif name.endswith(".py") or "." not in name or (texts is not None and is_schedule_file(name, folder)):
                    if ((exclude and excluded(path, prefix + name))
                            or (gitignore is not None and gitignore.ignored(path, False, below))):
                        continue
                    display = os.path.normpath(os.path.join(given, prefix + name))
                    if name.endswith(".py") or ("." not in name and python_script(entry)):
                        add(path, display, entry.is_symlink())
                    elif texts is not None and is_schedule_file(name, folder) and not entry.is_symlink():
                        texts.append((Path(path), display))
                    elif "." not in name and consulted is not None and entry.is_file(follow_symlinks=False):
                        consulted.append(path)  # its first line was read: one that comes to run Python adds it
            pending.extend(reversed(subfolders))
    if gitignore is not None:
        if folders is not None:
            folders.update(gitignore.looked_in)
        if consulted is not None:
            consulted.extend(gitignore.read)
    return sorted(out.items(), key=lambda item: item[1])


def python_script(entry: os.DirEntry) -> bool:
    """A file with no extension whose first line runs Python (`#!/usr/bin/env python3`): a script
    a package installs as a command (`scripts=["getmail"]`), run from cron as often as a `.py`
    one. Only a regular file is opened, and only its first line read."""
    try:
        if not entry.is_file(follow_symlinks=False):
            return False
        first = read_source(entry.path, 128).partition(b"\n")[0]
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def _checked_roots(paths: list[str], root: Path) -> list[str]:
    """The folders a symlink may lead into: the folders given, those of the files given, and
    the configuration's folder (the project), each with symlinks resolved."""
    out = {os.path.realpath(root)}
    for given in paths:
        real = os.path.realpath(given)
        out.add(real if os.path.isdir(real) else os.path.realpath(os.path.dirname(os.path.abspath(given))))
    return sorted(out)


def refusal(path: str, is_symlink: bool, roots: list[str], max_file_size: int | None) -> str | None:
    """Why the file at `path` must not be read, or None. A symlink leading out of `roots` could
    be anything on the machine (`/etc/passwd`, `/dev/zero`): a pull request can add one, and its
    lines would be printed into the CI log. What is not a regular file (a FIFO blocks, a device
    never ends) is refused too; so is a file larger than `max_file_size`. What cannot be looked
    at (a broken link, a loop) is left to the reader, which says why it cannot read it."""
    if is_symlink:
        target = os.path.realpath(path)
        if not any(target == r or target.startswith(r.rstrip(os.sep) + os.sep) for r in roots):
            return "a symbolic link to a file outside the checked folders: not read"
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return f"not a regular file ({_kind(st.st_mode)}): not read"
    if max_file_size is not None and st.st_size > max_file_size:
        return (f"{format_size(st.st_size)}, larger than max-file-size ({format_size(max_file_size)}): not read "
                "(raise `max-file-size` in [tool.jobcheck] to check it)")
    return None


def _kind(mode: int) -> str:
    for test, kind in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return kind
    return "a special file"


def format_size(size: int) -> str:
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size} bytes"

def per_file_ignored(display: str, absolute: Path, root: Path, per_file_ignores: dict[str, list[str]]) -> set[str]:
    try:
        rel = Path(os.path.realpath(absolute)).relative_to(os.path.realpath(root)).as_posix()
    except ValueError:
        rel = display
    codes: set[str] = set()
    for pattern, values in per_file_ignores.items():
        if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(display, pattern) or fnmatch.fnmatch(Path(rel).name, pattern):
            codes.update(values)
    return codes
