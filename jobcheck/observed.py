"""What a project phase looked at, so that a later run can tell whether an edit could change it.

The project phase reads a module in two ways. Scans read certain parts of every module: the
module-level names, imports, assignments and suppressions, every class, the module's top-level
code, and every function with a decorator or with a call the frameworks ask for by name (all
functions with calls when a framework scans every call, as Airflow's does). Everything else is
read by name: a function or class looked up by its qualified name (`Project.functions`,
`Project.classes`, and the linker's probes), whether the lookup found something or not.

`Observation` records the second kind and what decides the first. If an edit leaves a module's
scanned parts equal (positions included) and every definition looked up in it equal, no step of
the project phase can read anything different, so every finding is what it was: the run reuses
them. Appending a function nothing names, or editing one nothing reaches, is such an edit; changing
a job, a helper a job reaches, a decorator, an import or a class is not, and re-links the project.
The compare needs the module's previous summary, which the cache keeps under its old key.

This is sound only while every by-name read goes through a recorded door: code that reads a
module's functions or classes by key another way must record the key (as `relink` does with
`asked`), and a new scan must be covered by `_scanned`. The edit test in
tests/test_cache_parallel.py compares reused findings with fresh ones for many edits, and is
where a hole shows.
"""

from __future__ import annotations

from .summary import MODULE_CODE, ModuleSummary


class RecordingDict(dict):
    """A dict that remembers every key asked for by `[]`, `get` or `in`, found or not."""

    __slots__ = ("asked",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.asked: set = set()

    def __getitem__(self, key):
        self.asked.add(key)
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        self.asked.add(key)
        return dict.get(self, key, default)

    def __contains__(self, key) -> bool:
        self.asked.add(key)
        return dict.__contains__(self, key)


class Observation:
    """Per module, the qualified names looked up in it; and what selects the scanned functions."""

    def __init__(self, looked_up: dict[str, list[str]], call_attrs: list[str], all_calls: bool,
                 lines: dict[str, str] | None = None) -> None:
        self.looked_up = looked_up
        self.call_attrs = call_attrs
        self.all_calls = all_calls
        self.lines = lines or {}  # `finding_lines` of the run's findings

    def to_data(self) -> tuple:
        return (self.looked_up, sorted(self.call_attrs), self.all_calls, self.lines)

    @classmethod
    def from_data(cls, data) -> Observation | None:
        try:
            looked_up, call_attrs, all_calls, lines = data
        except (TypeError, ValueError):
            return None
        if type(looked_up) is not dict or type(call_attrs) is not list or type(all_calls) is not bool or type(lines) is not dict:
            return None
        return cls(looked_up, call_attrs, all_calls, lines)

    @classmethod
    def of(cls, asked: set[str], modules: dict[str, ModuleSummary], call_attrs: set[str], all_calls: bool) -> Observation:
        looked_up: dict[str, list[str]] = {}
        for key in asked:
            if type(key) is not str:
                continue
            module = key
            while module and module not in modules:
                module = module.rpartition(".")[0]
            if module:  # outside every module: a library name, which no edit of ours can define
                looked_up.setdefault(module, []).append(key)
        return cls({m: sorted(keys) for m, keys in looked_up.items()}, sorted(call_attrs), all_calls)

    def edit_is_unobserved(self, old: ModuleSummary, new: ModuleSummary) -> bool:
        """Would the project phase read anything different from `new` than it read from `old`?"""
        if old.error is not None or new.error is not None or old.module != new.module:
            return False
        for name in ("symbols", "assigns", "imported", "suppressions", "classes"):
            if getattr(old, name) != getattr(new, name):
                return False
        if _imports_seen(old) != _imports_seen(new):
            return False
        if self._scanned(old) != self._scanned(new):
            return False
        for key in self.looked_up.get(old.module, ()):
            if old.functions.get(key) != new.functions.get(key) or old.classes.get(key) != new.classes.get(key):
                return False
        return True

    def _scanned(self, mod: ModuleSummary) -> dict:
        attrs = set(self.call_attrs)
        out = {}
        for qualname, fn in mod.functions.items():
            if fn.decorators or fn.name == MODULE_CODE or any(
                ev.kind == "call" and (self.all_calls or ev.attr in attrs) for ev in fn.events
            ):
                out[qualname] = fn
        return out


def _imports_seen(mod: ModuleSummary) -> tuple:
    """What of a module's name table the project phase can read without looking a name up: the
    imports proper, and the first parts of every entry (frameworks ask "does anything import
    airflow?"). A module's own definitions are entries too (`send -> shop.tasks.send`), but those
    are read only after looking `shop.tasks.send` up as a function or class, which is recorded."""
    own = mod.module + "."
    imports = {k: v for k, v in mod.imports.items() if v != own + k}
    return imports, {v.partition(".")[0] for v in mod.imports.values()}


def finding_lines(findings: list, source_lines) -> dict[str, str]:
    """Per file with findings, a digest of the text of the lines they start and end on: columns
    are counted in characters from that text, so an edit there changes findings even when the
    summary compares equal (a same-length edit before a finding, in text the summary omits)."""
    import hashlib

    by_path: dict[str, set[int]] = {}
    for f in findings:
        by_path.setdefault(f.path, set()).update((f.span.line, f.span.end_line))
    out = {}
    for path, numbers in by_path.items():
        h = hashlib.blake2b(digest_size=12)
        for n in sorted(numbers):
            h.update(b"%d\0%s\n" % (n, source_lines.line(path, n).encode("utf-8", "surrogatepass")))
        out[path] = h.hexdigest()
    return out
