"""Context modules: the files the analysed files import, loaded so cross-module effects are seen
even when only some files are checked (pre-commit passes just the staged files, an editor one
buffer). Their summaries feed the project phase; their own findings are not reported.

Imports are resolved the way Python would from each analysed file's package root (the folder
above its top-level package) and from the configuration's folder (and its `src/`), following
the closure of imports up to a bound.
"""

from __future__ import annotations

import os
from pathlib import Path

from .summary import ModuleSummary

MAX_CONTEXT_MODULES = 2000
_MISSING: dict = {}  # the listing of a folder that cannot be listed


def package_root(path: Path, module: str, is_package: bool) -> Path:
    depth = module.count(".") + (1 if is_package else 0)
    parents = Path(os.path.abspath(path)).parents
    return parents[min(depth, len(parents) - 1)]


def module_file(name: str, roots: list[Path], listings: dict | None = None) -> tuple[Path, bool] | None:
    """The file of module `name` under the first root that has it. `listings` (one per run)
    remembers each folder's entries: most names are third-party and stop at the first folder."""
    listings = {} if listings is None else listings
    parts = name.split(".")
    for root in roots:
        folder = str(root)
        for part in parts[:-1]:
            if _entries(folder, listings).get(part) is not False:  # absent, or a file
                break
            folder = os.path.join(folder, part)
        else:
            entries = _entries(folder, listings)
            last = parts[-1]
            if entries.get(last + ".py") is True:
                return Path(folder, last + ".py"), False
            if entries.get(last) is False and _entries(os.path.join(folder, last), listings).get("__init__.py") is True:
                return Path(folder, last, "__init__.py"), True
    return None


def _entries(folder: str, listings: dict) -> dict[str, bool]:
    """name -> is a file (False: a folder) for the entries of `folder`, listed once."""
    got = listings.get(folder)
    if got is None:
        got = {}
        try:
            with os.scandir(folder) as it:
                for entry in it:
                    try:
                        got[entry.name] = entry.is_file()
                    except OSError:
                        continue
                    if not got[entry.name] and not entry.is_dir():
                        del got[entry.name]
        except OSError:
            got = _MISSING  # appearing later changes its parent folder's time (or it is a root)
        listings[folder] = got
    return got


def load(summaries: list[ModuleSummary], roots: list[Path], summarize, display_for=None,
         folders: set[str] | None = None) -> list[ModuleSummary]:
    """Summaries of the modules `summaries` import, transitively, that are not among them.
    `summarize` takes [(path, display, module, is_package)] like `api.check_paths`' summarizer.
    `folders`, if given, collects every folder listed to resolve imports."""
    known = {s.module for s in summaries}
    listings: dict = {}
    seen_names: set[str] = set()
    out: list[ModuleSummary] = []
    frontier = [s for s in summaries if s.error is None]
    while frontier and len(out) < MAX_CONTEXT_MODULES:
        wanted: dict[str, tuple[Path, bool]] = {}
        for summary in frontier:
            for name in summary.imported:
                # `pkg.mod.func` may name a function: try the longest prefix that is a file.
                parts = name.split(".")
                for i in range(len(parts), 0, -1):
                    candidate = ".".join(parts[:i])
                    if candidate in known or candidate in wanted:
                        break
                    if candidate in seen_names:
                        continue
                    seen_names.add(candidate)
                    found = module_file(candidate, roots, listings)
                    if found is not None:
                        wanted[candidate] = found
                        break
        jobs = []
        for module, (path, is_package) in wanted.items():
            if len(out) + len(jobs) >= MAX_CONTEXT_MODULES:
                break
            display = display_for(path) if display_for else _display(path)
            jobs.append((path, display, module, is_package))
            known.add(module)
        frontier = [s for s in summarize(jobs) if s.error is None] if jobs else []
        out.extend(frontier)
    if folders is not None:
        folders.update(folder for folder, entries in listings.items() if entries is not _MISSING)
    return out


def _display(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)
