"""Imports written for a folder on sys.path, rewritten to the analysed tree's module names.

Applications are often run with one of their own package folders on `sys.path`: Label Studio's
`label_studio/` holds `core/redis.py`, and its code says `from core.redis import enqueue`, which
Python resolves because `label_studio/` is on the path. The summary of
`label_studio/projects/api.py` then names `core.redis.enqueue`, while the analysed module is
`label_studio.core.redis`. At link time, an import whose top-level name is no analysed top-level
module is tried below each package around the importing module, nearest first, and kept only if
that lands on a module of the tree; the module's resolved names are rewritten accordingly.

The other way round, a namespace package (a folder with no `__init__.py`, `aleksis/core/...`)
is left out of the tree's module names (`core.celery`) while the code imports `aleksis.core.celery`:
such an import loses its first name when what follows lands on a module of the tree for some of
its imports (the others belong to another distribution of the namespace).

Summaries are mutated in place; they are fresh copies for each run (the cache deserialises a new
object every time), so nothing rewritten is ever written back.
"""

from __future__ import annotations

import sys

from .summary import MODULE_CODE, ModuleSummary

# `import logging` in `pkg/mod.py` is the standard library's even when `pkg/logging/` exists:
# a folder on sys.path never shadows it in an application that works.
_STDLIB = sys.stdlib_module_names


def relink(modules: dict[str, ModuleSummary]) -> dict[str, dict[str, str]]:
    """Returns the rewrites made: module -> {top-level name: the package it is below, or "" for a
    namespace package's name that the tree's module names leave out}."""
    tops = {name.partition(".")[0] for name in modules}
    namespaces = namespace_folders(modules)
    aliases = package_dir_aliases(modules, tops)
    made = {}
    for mod in modules.values():
        rewrites = rewrites_for(mod, modules, tops, namespaces)
        for top in {n.partition(".")[0] for n in mod.imported} & set(aliases):
            rewrites.setdefault(top, aliases[top])
        if rewrites:
            apply(mod, rewrites)
            made[mod.module] = rewrites
    return made


def setup_keyword(modules: dict[str, ModuleSummary], keyword: str) -> list | None:
    """The Value given for `keyword` to `setup(...)` in the tree's top-level setup.py (a module
    variable followed to what it is assigned), or None."""
    setup = modules.get("setup")
    code = setup.functions.get(f"setup.{MODULE_CODE}") if setup is not None else None
    for ev in code.events if code is not None else ():
        if ev.kind == "call" and (ev.name or "").endswith(("setuptools.setup", "distutils.core.setup")):
            value = ev.kwargs.get(keyword)
            if value and value[0] in ("ref", "name") and value[-1].rpartition(".")[2] in setup.assigns:
                value = setup.assigns[value[-1].rpartition(".")[2]][0]
            return value
    return None


def package_dir_aliases(modules: dict[str, ModuleSummary], tops: set[str]) -> dict[str, str]:
    """`setup(package_dir={"supybot": "src"})` in the tree's setup.py: the package is installed
    under another name than its folder's, and the code imports `supybot.schedule` for the tree's
    `src.schedule`. Top-level names only, and only onto a folder that is a package of the tree."""
    value = setup_keyword(modules, "package_dir")
    out: dict[str, str] = {}
    for key, folder in value[1] if value and value[0] == "dict" else ():
        alias, prefix = key[1] if key[0] == "lit" else None, folder[1] if folder[0] == "lit" else None
        if not isinstance(alias, str) or not isinstance(prefix, str) or not alias or "." in alias or alias in tops:
            continue
        prefix = prefix.strip("/").replace("/", ".")
        if prefix in modules or any(m.startswith(prefix + ".") for m in modules):
            out[alias] = prefix
    return out


def setup_console_scripts(modules: dict[str, ModuleSummary]) -> dict[str, str]:
    """`setup(entry_points={"console_scripts": ["tool = pkg.cli:main"]})`, or the same as an ini
    string (`entry_points="[console_scripts]\\ntool = pkg.cli:main"`): name -> "module:function"."""
    value = setup_keyword(modules, "entry_points")
    texts: list[str] = []
    if value and value[0] == "lit" and isinstance(value[1], str):
        section = None
        for line in value[1].splitlines():
            stripped = line.strip()
            if stripped.startswith("[") and stripped.endswith("]"):
                section = stripped[1:-1].strip()
            elif section == "console_scripts":
                texts.append(stripped)
    for key, entries in value[1] if value and value[0] == "dict" else ():
        if key[:2] != ["lit", "console_scripts"] or not entries:
            continue
        for entry in entries[1] if entries[0] == "seq" else [entries]:
            texts.append(entry[1] if entry and entry[0] == "lit" and isinstance(entry[1], str) else "")
    out: dict[str, str] = {}
    for text in texts:
        name, eq, target = text.partition("=")
        if eq and name.strip() and ":" in target:
            out[name.strip()] = target.strip().split()[0]
    return out


def namespace_folders(modules: dict[str, ModuleSummary]) -> set[str]:
    """Folders right above a top-level package that have no `__init__.py` (PEP 420 namespace
    packages, `aleksis/core/...`): the tree names the module `core.celery`, the code imports
    `aleksis.core.celery`."""
    return {folder for mod in modules.values() if (folder := _folder_above(mod)) is not None}


def _folder_above(mod: ModuleSummary) -> str | None:
    """The folder holding a module's top-level package (`ershu` for `ershu/workers/queue.py`, named
    `workers.queue`), when its path spells the module's name below it."""
    segments = mod.module.split(".")
    parts = mod.path.replace("\\", "/").split("/")
    parts[-1] = parts[-1].removesuffix(".py")
    if parts[-1] == "__init__":
        parts.pop()
    n = len(segments)
    if len(parts) > n and parts[-n:] == segments and parts[-n - 1].isidentifier():
        return parts[-n - 1]
    return None


def _below(folder: str, name: str, modules: dict[str, ModuleSummary]) -> bool:
    """Is the module `name` lands on (it, or the module that defines it) in the namespace folder
    `folder` (`ershu/workers/...` for `workers.readonly_run`), not in another folder of the tree?"""
    mod = modules.get(name) or modules.get(name.rpartition(".")[0])
    return mod is not None and _folder_above(mod) == folder


def rewrites_for(mod: ModuleSummary, modules: dict[str, ModuleSummary], tops: set[str],
                 namespaces: set[str] = frozenset()) -> dict[str, str]:
    ancestors = []
    parts = mod.module.split(".")[:-1]
    while parts:
        ancestors.append(".".join(parts))
        parts.pop()
    by_top: dict[str, list[str]] = {}
    for name in mod.imported:
        top = name.partition(".")[0]
        if top not in tops and top not in _STDLIB:
            by_top.setdefault(top, []).append(name)
    out: dict[str, str] = {}
    for top, names in by_top.items():
        rests = [n.partition(".")[2] for n in names if "." in n]
        if top in namespaces and any(_lands(rest, modules, tops) and _below(top, rest, modules) for rest in rests) \
                and not any(rest == mod.module or rest.startswith(mod.module + ".") for rest in rests):
            # (what lands nowhere belongs to another distribution of the namespace: `aleksis.core`
            # beside the tree's `aleksis.apps`, and stays unknown; a name that would land on the
            # importing module itself is a library's of the folder's name: `from netbox.jobs import
            # JobRunner` in `netbox/jobs.py`)
            out[top] = ""
            continue
        for base in ancestors:
            candidate = f"{base}.{top}"
            if candidate == mod.module or mod.module.startswith(candidate + "."):
                continue  # `import celery` inside app/celery.py is the library, not itself
            # Every name imported under this top must land on a module or on something defined
            # there: `from celery import Celery` next to an app/celery.py that merely imports
            # Celery is the library, not the sibling.
            if all(_lands(f"{base}.{n}", modules, tops | {top}) for n in names):
                out[top] = candidate
                break
    return out


def _lands(name: str, modules: dict[str, ModuleSummary], internal: set[str]) -> bool:
    """Is `name` a module of the tree, or something defined there, or re-exported there from the
    tree itself? A name the module merely imports from a library (`Celery` in app/celery.py)
    does not count: the import meant the library."""
    if name in modules:
        return True
    module, _, attr = name.rpartition(".")
    mod = modules.get(module)
    if mod is None or not attr:
        return False
    qual = f"{module}.{attr}"
    if qual in mod.functions or qual in mod.classes or (attr in mod.symbols and attr not in mod.imports):
        return True
    source = mod.imports.get(attr)
    return bool(source) and source.partition(".")[0] in internal


def apply(mod: ModuleSummary, rewrites: dict[str, str]) -> None:
    def name(value: str | None) -> str | None:
        if not value:
            return value
        top, dot, rest = value.partition(".")
        bare = top.partition("(")[0]
        if bare in rewrites and top == bare:
            return rewrites[bare] + dot + rest if rewrites[bare] else rest
        return value

    def val(value: list) -> list:
        if not value:
            return value
        tag = value[0]
        if tag == "name":
            return ["name", name(value[1]), *value[2:]]
        if tag == "call":
            return ["call", name(value[1]), [val(v) for v in value[2]], {k: val(v) for k, v in value[3].items()}]
        if tag == "seq":
            return ["seq", [val(v) for v in value[1]]]
        if tag == "dict":
            return ["dict", [[val(k), val(v)] for k, v in value[1]]]
        return value

    mod.imports = {k: name(v) for k, v in mod.imports.items()}
    mod.symbols = {k: name(v) for k, v in mod.symbols.items()}
    mod.assigns = {k: [val(v[0]), *v[1:]] for k, v in mod.assigns.items()}
    for fn in mod.functions.values():
        fn.return_type = name(fn.return_type)
        fn.decorators = [[val(d[0]), *d[1:]] for d in fn.decorators]
        for ev in fn.events:
            ev.name = name(ev.name)
            ev.args = [val(a) for a in ev.args]
            ev.kwargs = {k: val(v) for k, v in ev.kwargs.items()}
        for region in fn.regions:
            region.name = name(region.name)
        for handler in fn.handlers:
            handler.types = [name(t) for t in handler.types]
    for cls in mod.classes.values():
        cls.bases = [name(b) for b in cls.bases]
        cls.decorators = [[val(d[0]), *d[1:]] for d in cls.decorators]
        cls.attr_types = {k: name(v) for k, v in cls.attr_types.items()}
        cls.attrs = {k: [val(v[0]), *v[1:]] for k, v in cls.attrs.items()}
