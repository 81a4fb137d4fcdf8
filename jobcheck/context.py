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


def package_root(path: Path, module: str, is_package: bool) -> Path:
    depth = module.count(".") + (1 if is_package else 0)
    parents = path.resolve().parents
    return parents[min(depth, len(parents) - 1)]


def module_file(name: str, roots: list[Path]) -> tuple[Path, bool] | None:
    relative = Path(*name.split("."))
    for root in roots:
        candidate = root / relative.with_suffix(".py")
        if candidate.is_file():
            return candidate, False
        candidate = root / relative / "__init__.py"
        if candidate.is_file():
            return candidate, True
    return None


def load(summaries: list[ModuleSummary], roots: list[Path], summarize, display_for=None) -> list[ModuleSummary]:
    """Summaries of the modules `summaries` import, transitively, that are not among them.
    `summarize` takes [(path, display, module, is_package)] like `api.check_paths`' summarizer."""
    known = {s.module for s in summaries}
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
                    found = module_file(candidate, roots)
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
    return out


def _display(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)
