"""Which files a run looks at: the paths given, recursively, minus what is never source."""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

# Folders that hold no project source: VCS data, virtualenvs, caches, build output.
SKIP_DIRS = {
    ".git", ".hg", ".svn", ".bzr", "__pycache__", ".venv", "venv", ".env", "env", ".tox", ".nox",
    "node_modules", "build", "dist", "site-packages", ".mypy_cache", ".pytest_cache", ".ruff_cache",
    ".jobcheck_cache", ".eggs", "__pypackages__", ".idea", ".vscode",
}


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
             folders: set[str] | None = None) -> list[tuple[Path, str]]:
    """(absolute path, display path) for every Python file under `paths`, sorted, deduplicated.

    Display paths are as given: relative where the input was relative. As in ruff, a path given
    explicitly is checked even if excluded (unless `force_exclude`, which pre-commit hooks use,
    since pre-commit passes every file explicitly); inside it, exclusions apply to what is found,
    matched against the path relative to the configuration's folder and to each folder name below
    the given path. `folders`, if given, collects every folder listed.
    """
    out: dict[Path, str] = {}
    root = root.resolve()
    root_prefix = str(root).rstrip(os.sep) + os.sep
    rooted = [pat for pat in exclude if "/" in pat]

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

    for given in paths:
        absolute = Path(os.path.realpath(given))  # not resolve(): a symlink loop must not raise
        if not absolute.is_dir():  # a file, or anything else given by name: read (and reported) as one
            if not (force_exclude and _excluded(rel_to(absolute, root), exclude)):
                out.setdefault(absolute, os.path.normpath(given))
            continue
        if force_exclude and absolute != root and _excluded(rel_to(absolute, root), exclude):
            continue
        top = str(absolute)
        for folder, dirs, files in os.walk(top):
            if folders is not None:
                folders.add(folder)
            # Paths are handled as strings here: pathlib costs more than the walk on big trees.
            below_folder = os.path.relpath(folder, top).replace(os.sep, "/")
            prefix = below_folder + "/" if below_folder != "." else ""
            dirs[:] = sorted(
                d for d in dirs
                if d not in SKIP_DIRS and not d.endswith(".egg-info")
                and not (exclude and excluded(os.path.join(folder, d), prefix + d))
            )
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                if exclude and excluded(path, prefix + name):
                    continue
                display = os.path.normpath(os.path.join(given, prefix + name))
                out.setdefault(Path(path), display)
    return sorted(out.items(), key=lambda item: item[1])


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
