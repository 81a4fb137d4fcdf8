"""Context modules: the files the analysed files import, loaded so cross-module effects are seen
even when only some files are checked (pre-commit passes just the staged files, an editor one
buffer). Their summaries feed the project phase; their own findings are not reported.

Imports are resolved the way Python would from each analysed file's package root (the folder
above its top-level package) and from the configuration's folder (and its `src/`), following
what the names used lead to (see `load`), up to a bound.
"""

from __future__ import annotations

import os
from pathlib import Path

from .summary import BASES, MODULE_CODE, ModuleSummary

MAX_CONTEXT_MODULES = 2000
# A name is followed only this deep: one that grows each time it is followed (`from pkg.Proxy import
# Proxy` in `pkg/__init__.py` with no `pkg/Proxy.py`: `pkg.Proxy.Proxy.Proxy...`) would never end.
MAX_NAME_PARTS = 40
_MISSING: dict = {}  # the listing of a folder that cannot be listed


def package_root(path: Path | str, module: str, is_package: bool) -> str:
    """The folder a module's top package (or the module itself) sits in, as an absolute path
    (strings, not Paths: a run asks this of every file)."""
    depth = module.count(".") + (1 if is_package else 0)
    folder = os.path.dirname(os.path.abspath(path))
    for _ in range(depth):
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return folder


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
    """Summaries of the modules the analysis of `summaries` needs, that are not among them.

    Needed is what a name leads to: every name the given files use, and every module they import;
    then, in a module read for a name, only what that name's definition uses (a function's calls,
    a class's bases and the members named, an assignment's value, a re-export's target) and the
    module's own top-level code — not the rest of its imports. A file importing a large package
    reads the few modules its calls reach, not the package's whole import closure.
    `summarize` takes [(path, display, module, is_package)] like `api.check_paths`' summarizer.
    `folders`, if given, collects every folder listed to resolve imports."""
    loaded: dict[str, ModuleSummary] = {s.module: s for s in summaries}
    given = set(loaded)
    listings: dict = {}
    not_modules: set[str] = set()
    tops: dict[str, bool] = {s.module.partition(".")[0]: True for s in summaries}
    package_folders: dict[str, str] = {}
    seen: set[str] = set()
    out: list[ModuleSummary] = []
    pending: list[str] = []
    for summary in summaries:
        if summary.error is None:
            pending.extend(summary.imported)
            pending.extend(summary.imports.values())
            pending.extend(t for t in summary.symbols.values() if t)
            for names in summary.uses.values():
                pending.extend(names.split())
    wanted: dict[str, tuple[Path, bool]] = {}  # modules to read this round
    waiting: dict[str, list[list[str]]] = {}  # module to read -> the rests of names into it

    def want(module: str, found: tuple[Path, bool], rest: list[str]) -> None:
        if module in wanted:
            waiting[module].append(rest)
        elif len(out) + len(wanted) < MAX_CONTEXT_MODULES:
            wanted[module] = found
            waiting[module] = [rest]

    while pending and len(out) < MAX_CONTEXT_MODULES:
        wanted.clear()
        waiting.clear()
        later: list[str] = []
        for name in pending:
            if name in seen:
                continue
            seen.add(name)
            clean = name.replace("()", "") if "(" in name else name
            if clean.count(".") >= MAX_NAME_PARTS:
                continue
            head = clean.partition(".")[0]
            top = tops.get(head)
            if top is None:
                top = tops[head] = module_file(head, roots, listings) is not None
            if not top:
                continue  # a library, or a local name: nothing under it is ours
            # The longest prefix that is a module: `pkg.mod.Class.method` is in pkg/mod.py. Below a
            # module read already, only a package can hold more modules, found in its folder.
            prefix = clean
            while prefix and prefix not in loaded:
                cut = prefix.rfind(".")
                prefix = prefix[:cut] if cut > 0 else ""
            if prefix:
                mod = loaded[prefix]
                rest = clean[len(prefix) + 1:].split(".") if len(clean) > len(prefix) else []
                if rest and _is_package(mod):
                    folder = package_folders.get(prefix)
                    if folder is None:
                        folder = package_folders[prefix] = os.path.dirname(os.path.abspath(mod.path))
                    found_below = submodule(prefix, folder, rest, listings)
                    if found_below is not None:
                        candidate, path, is_package, depth = found_below
                        if candidate not in loaded:
                            want(candidate, (path, is_package), rest[depth:])
                            continue
                        prefix, mod, rest = candidate, loaded[candidate], rest[depth:]
                if prefix not in given:  # a given module's names are all followed already
                    later.extend(_leads_to(mod, rest))
                continue
            parts = clean.split(".")
            for j in range(len(parts), 0, -1):
                candidate = ".".join(parts[:j])
                if candidate in wanted:
                    waiting[candidate].append(parts[j:])
                    break
                if candidate in not_modules:
                    continue
                found = module_file(candidate, roots, listings)
                if found is None:
                    not_modules.add(candidate)
                    continue
                want(candidate, found, parts[j:])
                break
        if wanted:
            jobs = [(path, display_for(path) if display_for else _display(path), module, is_package)
                    for module, (path, is_package) in wanted.items()]
            for summary in summarize(jobs):
                loaded[summary.module] = summary
                if summary.error is not None:
                    continue
                out.append(summary)
                later.extend(summary.uses.get(MODULE_CODE, "").split())
                for rest in waiting.get(summary.module, ()):
                    later.extend(_leads_to(summary, rest))
        pending = later
    if folders is not None:
        folders.update(listed_folders(listings))
    return out


def listed_folders(listings: dict) -> list[str]:
    """The folders `module_file` listed (with `listings`), except those it could not list."""
    return [folder for folder, entries in listings.items() if entries is not _MISSING]


def submodule(package: str, folder: str, rest: list[str], listings: dict) -> tuple[str, Path, bool, int] | None:
    """The deepest module below `package` (whose folder is `folder`) that `rest` names, as Python
    finds submodules (in the package's folder): (name, path, is_package, parts used)."""
    found = None
    name = package
    for depth, part in enumerate(rest, 1):
        entries = _entries(folder, listings)
        name = f"{name}.{part}"
        if entries.get(part + ".py") is True:
            return name, Path(folder, part + ".py"), False, depth
        sub = os.path.join(folder, part)
        if entries.get(part) is False and _entries(sub, listings).get("__init__.py") is True:
            found = (name, Path(sub, "__init__.py"), True, depth)
            folder = sub
            continue
        break
    return found


def _is_package(mod: ModuleSummary) -> bool:
    return mod.path.endswith("__init__.py")


def _leads_to(mod: ModuleSummary, rest: list[str]) -> list[str]:
    """The names that `module.rest...` (a definition in `mod`, or a member of one) uses."""
    if not rest or mod.error is not None:
        return []
    uses = mod.uses
    out: list[str] = []
    head, tail = rest[0], rest[1:]
    for k in range(1, len(rest) + 1):
        key = ".".join(rest[:k])
        if key in uses:
            out.extend(uses[key].split())
        bases = uses.get(f"{key}.{BASES}")
        if bases is not None:
            bases = bases.split()
            # A class: the members named after it (methods, also along a manager chain such as
            # `Order.objects.get().notify`), its constructor, and what its bases give by inheritance.
            members = rest[k:]
            for member in (*members, "__init__", "__call__"):
                out.extend(uses.get(f"{key}.{member}", "").split())
            if members:
                out.extend(f"{base}.{'.'.join(members)}" for base in bases)
            break
    qual = f"{mod.module}.{head}"
    for target in (mod.imports.get(head), mod.symbols.get(head)):
        if target and target != qual:
            out.append(".".join([target, *tail]))
    return out


def _display(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)
