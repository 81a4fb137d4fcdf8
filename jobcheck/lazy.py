"""A project whose module summaries are read from the cache when a lookup first reaches them.

`recheck` runs the checks of a few functions after an edit; they read a small part of the
project (the functions they reach and the names those use), and reading every summary back
would cost more than the whole re-check. Lookups by name load what they name: `modules[m]`
the module, `functions[q]` / `classes[q]` / `function_module[q]` every module whose name is a
prefix of `q` (a name is defined by the last of them in the project's order, as a linked
project has it). Anything that would list the whole project — iterating `modules`,
`functions` or `classes` — raises `NeedsWholeProject`, and the caller links the project
instead. The scans' own whole-project loops are replayed from the record (`sources`).
"""

from __future__ import annotations

from .observed import RecordingDict
from .summary import ModuleSummary


class NeedsWholeProject(Exception):
    """A step would read every module, or a summary is gone from the cache."""


def _whole(*_args, **_kwargs):
    raise NeedsWholeProject


class _Modules(dict):
    """Module name -> summary, loaded on first lookup; membership is the project's module list."""

    __slots__ = ("loader",)

    def __init__(self, loader: _Loader) -> None:
        super().__init__()
        self.loader = loader

    def __getitem__(self, name):
        mod = self.get(name)
        if mod is None:
            raise KeyError(name)
        return mod

    def get(self, name, default=None):
        mod = dict.get(self, name)
        if mod is None:
            if name not in self.loader.rank:
                return default
            mod = self.loader.load(name)
        return mod

    def __contains__(self, name) -> bool:
        return name in self.loader.rank

    __iter__ = keys = values = items = __len__ = _whole


class _ByName(RecordingDict):
    """Qualified name -> what the modules define under it, loading every module that could."""

    __slots__ = ("loader",)

    def __init__(self, loader: _Loader) -> None:
        super().__init__()
        self.loader = loader

    def __getitem__(self, key):
        self.loader.reach(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.loader.reach(key)
        return super().get(key, default)

    def __contains__(self, key) -> bool:
        self.loader.reach(key)
        return super().__contains__(key)

    __iter__ = keys = values = items = __len__ = _whole


class _Loader:
    def __init__(self, names: list[str], read, rewrites: dict[str, dict[str, str]]) -> None:
        """`names`: the project's modules in order; `read(name)` -> its summary (None if gone);
        `rewrites`: the import rewrites linking made (`relink`), applied as each module loads."""
        from .relink import apply

        self.rank = {name: i for i, name in enumerate(names)}
        self.read = read
        self.rewrites = rewrites
        self.apply = apply
        self.modules = _Modules(self)
        self.functions = _ByName(self)
        self.function_module = _ByName(self)
        self.classes = _ByName(self)
        self._reached: set[str] = set()
        self._owner_rank: dict[str, int] = {}  # qualname -> rank of the module that defines it
        self.loaded = 0

    def load(self, name: str) -> ModuleSummary:
        mod = self.read(name)
        if mod is None or mod.error is not None or mod.module != name:
            raise NeedsWholeProject(name)
        self.loaded += 1
        rewrites = self.rewrites.get(name)
        if rewrites:
            self.apply(mod, rewrites)
        mod.uses = {}
        dict.__setitem__(self.modules, name, mod)
        rank = self.rank[name]
        for q, fn in mod.functions.items():
            if self._owner_rank.get(q, -1) < rank:  # the later module wins, as in a linked project
                self._owner_rank[q] = rank
                dict.__setitem__(self.functions, q, fn)
                dict.__setitem__(self.function_module, q, mod)
        for q, cls in mod.classes.items():
            if self._owner_rank.get("class " + q, -1) < rank:
                self._owner_rank["class " + q] = rank
                dict.__setitem__(self.classes, q, cls)
        return mod

    def reach(self, qualname) -> None:
        """Load every module that could define `qualname`."""
        if type(qualname) is not str or qualname in self._reached:
            return
        self._reached.add(qualname)
        end = qualname.find(".")
        while end != -1:
            prefix = qualname[:end]
            if prefix in self.rank and not dict.__contains__(self.modules, prefix):
                self.load(prefix)
            end = qualname.find(".", end + 1)


def lazy_project(names: list[str], read, rewrites, catalog, frameworks, entry_points):
    """A Project (not linked: `rewrites` replay the linking) over `names`, loading summaries
    through `read` as lookups reach them. It records what it looks up, as an observing project
    does."""
    from .project import Project

    loader = _Loader(names, read, rewrites)
    project = Project.__new__(Project)
    project.start(catalog, frameworks, entry_points)
    project.modules = loader.modules
    project.linker_asked = set()
    project.rewrites = rewrites
    project.functions = loader.functions
    project.function_module = loader.function_module
    project.classes = loader.classes
    prefixes: set[str] = set()
    for name in names:
        parts = name.split(".")
        prefixes.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    project.__dict__["_module_prefixes"] = prefixes
    project.__dict__["_fw_tops"] = {name.partition(".")[0] for name in names}
    project.__dict__["_loader"] = loader
    project.attribute_lookups()
    return project
