"""What a project phase looked at, so that a later run can tell whether an edit could change it.

The project phase reads a module in two ways. Scans read certain parts of every module: the
module-level names, imports, assignments and suppressions, every class, the module's top-level
code, and every function with a decorator or with a call the frameworks ask for by name (all
functions with calls when a framework scans every call, as Airflow's does). Everything else is
read by name: a function or class looked up by its qualified name (`Project.functions`,
`Project.classes`, and the linker's probes), whether the lookup found something or not.

`Observation` records the second kind and what decides the first. If an edit leaves a module's
scanned parts equal and every definition looked up in it equal, positions aside, no step of the
project phase can read anything different but line numbers, so every finding is what it was, its
lines renamed (`moved_lines`, `moved_finding`): the run reuses them. Appending a function nothing
names, editing one nothing reaches, or adding lines anywhere that only move what is below, is
such an edit; changing a job, a helper a job reaches, a decorator, an import or a class is not,
and re-links the project. The compare needs the module's previous summary, which the cache keeps
under its old key.

This is sound only while every by-name read goes through a recorded door: code that reads a
module's functions or classes by key another way must record the key (as `relink` does with
`asked`), code that reads its name tables (assignments, imports) by key must too
(`Project.note_read`: `recheck` lets unread entries change), and a new scan must be covered by
`_read` (and by `recheck.body_edit`); a new position field of a summary must be
renamed by `_renamed` (or every edit of its module re-links: the compare sees it change). The edit test in
tests/test_cache_parallel.py compares reused findings with fresh ones for many edits, and is
where a hole shows.
"""

from __future__ import annotations

from sys import intern

from .summary import MODULE_CODE, ModuleSummary


class RecordingDict(dict):
    """A dict that remembers every key asked for by `[]`, `get` or `in`, found or not."""

    __slots__ = ("asked", "frames")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.asked: set = set()
        self.frames: list[set] = []  # and who asked (`lookers.Lookers.frames`, when attributed)

    def __getitem__(self, key):
        self.asked.add(key)
        if self.frames:
            self.frames[-1].add(intern(key))
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        self.asked.add(key)
        if self.frames:
            self.frames[-1].add(intern(key))
        return dict.get(self, key, default)

    def __contains__(self, key) -> bool:
        self.asked.add(key)
        if self.frames:
            self.frames[-1].add(intern(key))
        return dict.__contains__(self, key)


class Observation:
    """Per module, the qualified names looked up in it; and what selects the scanned functions."""

    def __init__(self, looked_up: dict[str, list[str]], call_attrs: list[str], all_calls: bool,
                 lines: dict[str, str] | None = None) -> None:
        self.looked_up = looked_up
        self.call_attrs = call_attrs
        self.all_calls = all_calls
        self.lines = lines or {}  # `finding_lines` of the run's findings

    def names_in(self, module: str) -> set[str]:
        """The qualified names looked up in a module, or below it."""
        out = set(self.looked_up.get(module, ()))
        prefix = module + "."
        for other, names in self.looked_up.items():
            if other.startswith(prefix):
                out.update(names)
        return out

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

    def moved_lines(self, old: ModuleSummary, new: ModuleSummary) -> dict[int, int] | None:
        """None if the project phase would read something different from `new` than from `old`,
        positions aside; else where each line it read from `old` is in `new`.

        What the phase reads is compared with every line number renamed by the one increasing
        map between the lines it reads in the two versions: the phase compares lines only for
        order and equality, and adds one only to find the line a suppression comment covers. That
        next line counts as read, so it is the next line in both versions: the map keeps it next.
        Under that map the phase's results are the same, lines renamed. Columns are compared as
        they are."""
        if old.error is not None or new.error is not None or old.module != new.module:
            return None
        for name in ("symbols", "imported"):
            if getattr(old, name) != getattr(new, name):
                return None
        if _imports_seen(old) != _imports_seen(new):
            return None
        names = self._read(old)
        if names != self._read(new):
            return None
        was, now = _read_lines(old, names), _read_lines(new, names)
        if len(was) != len(now):
            return None
        moved = dict(zip(was, now))
        before = _parts(old, names) if was == now else _renamed(old, names, moved)
        return moved if before == _parts(new, names) else None

    def _read(self, mod: ModuleSummary) -> tuple:
        """The functions the phase reads from a module: by scanning it, and by name (classes are
        read whole)."""
        attrs = set(self.call_attrs)
        scanned = [
            qualname for qualname, fn in mod.functions.items()
            if fn.decorators or fn.name == MODULE_CODE
            or any(ev.kind == "call" and (self.all_calls or ev.attr in attrs) for ev in fn.events)
        ]
        looked_up = self.looked_up.get(mod.module, ())
        return scanned, [k for k in looked_up if k in mod.functions]


def _functions_read(mod: ModuleSummary, names: tuple) -> list:
    scanned, looked_up = names
    return [mod.functions[k] for k in dict.fromkeys(scanned + looked_up)]


def _parts(mod: ModuleSummary, names: tuple) -> tuple:
    return (*module_parts(mod), _functions_read(mod, names))


def _suppressions(mod: ModuleSummary) -> dict:
    return {int(k): v for k, v in mod.suppressions.items()}


def _read_lines(mod: ModuleSummary, names: tuple) -> list[int]:
    """Every line number in what the phase reads of a module, sorted; a suppression comment's
    next line too (a standalone comment covers it)."""
    lines: set[int] = set()
    module_lines(mod, lines)
    for fn in _functions_read(mod, names):
        function_lines(fn, lines)
    return sorted(lines)


def module_lines(mod: ModuleSummary, lines: set[int]) -> None:
    """Add the line numbers of a module's assignments, suppressions (and the lines after them)
    and classes to `lines`."""
    for value in mod.assigns.values():
        lines.add(value[1])
    for line in _suppressions(mod):
        lines.update((line, line + 1))
    for cls in mod.classes.values():
        lines.update((cls.line, cls.end_line))
        if cls.doc_line is not None:
            lines.add(cls.doc_line)
        lines.update(d[1] for d in cls.decorators)
        lines.update(d[3] for d in cls.decorators)
        lines.update(v[1] for v in cls.attrs.values())


def _renamed(mod: ModuleSummary, names: tuple, moved: dict[int, int]) -> tuple:
    """`_parts` of a module with its line numbers renamed through `moved`."""
    functions = [renamed_function(fn, moved) for fn in _functions_read(mod, names)]
    return (*renamed_module(mod, moved), functions)


def module_parts(mod: ModuleSummary) -> tuple:
    """What `renamed_module` renames, as it is."""
    return mod.assigns, _suppressions(mod), mod.classes


def renamed_module(mod: ModuleSummary, moved) -> tuple:
    """A module's assignments, suppressions and classes with their line numbers renamed."""
    from dataclasses import replace

    def decorators(items):
        return [[d[0], moved[d[1]], d[2], moved[d[3]], d[4]] for d in items]

    assigns = {k: [v[0], moved[v[1]], *v[2:]] for k, v in mod.assigns.items()}
    suppressions = {moved[k]: v for k, v in _suppressions(mod).items()}
    classes = {
        k: replace(c, line=moved[c.line], end_line=moved[c.end_line],
                   doc_line=None if c.doc_line is None else moved[c.doc_line],
                   decorators=decorators(c.decorators),
                   attrs={a: [v[0], moved[v[1]], *v[2:]] for a, v in c.attrs.items()})
        for k, c in mod.classes.items()
    }
    return assigns, suppressions, classes


def renamed_function(fn, at):
    """A function summary with every line number renamed through `at[line]` (a mapping, or
    anything with `__getitem__`; a KeyError means a line it does not know)."""
    from dataclasses import replace

    return replace(
        fn, line=at[fn.line], end_line=at[fn.end_line], doc_line=None if fn.doc_line is None else at[fn.doc_line],
        decorators=[[d[0], at[d[1]], d[2], at[d[3]], d[4]] for d in fn.decorators],
        events=renamed_events(fn.events, at),
        regions=[replace(r, line=at[r.line], end_line=at[r.end_line]) for r in fn.regions],
        sinks=[replace(s, line=at[s.line]) for s in fn.sinks],
        handlers=[replace(h, line=at[h.line]) for h in fn.handlers],
    )


def renamed_events(events, at) -> list:
    from dataclasses import replace

    return [replace(ev, line=at[ev.line], end_line=at[ev.end_line], exit_line=at[ev.exit_line] if ev.exit_line else 0)
            for ev in events]


def function_lines(fn, lines: set[int]) -> None:
    """Add every line number in a function summary to `lines`."""
    lines.update((fn.line, fn.end_line))
    if fn.doc_line is not None:
        lines.add(fn.doc_line)
    lines.update(d[1] for d in fn.decorators)
    lines.update(d[3] for d in fn.decorators)
    event_lines(fn.events, lines)
    for r in fn.regions:
        lines.update((r.line, r.end_line))
    lines.update(s.line for s in fn.sinks)
    lines.update(h.line for h in fn.handlers)


def event_lines(events, lines: set[int]) -> None:
    for ev in events:
        lines.update((ev.line, ev.end_line))
        if ev.exit_line:
            lines.add(ev.exit_line)


def _imports_seen(mod: ModuleSummary) -> tuple:
    """What of a module's name table the project phase can read without looking a name up: the
    imports proper, and the first parts of every entry (frameworks ask "does anything import
    airflow?"). A module's own definitions are entries too (`send -> shop.tasks.send`), but those
    are read only after looking `shop.tasks.send` up as a function or class, which is recorded."""
    own = mod.module + "."
    imports = {k: v for k, v in mod.imports.items() if v != own + k}
    return imports, {v.partition(".")[0] for v in mod.imports.values()}


def finding_lines(findings: list, source_lines, at=None) -> dict[str, str]:
    """Per file with findings, a digest of the text of the lines they start and end on: columns
    are counted in characters from that text, so an edit there changes findings even when the
    summary compares equal (a same-length edit before a finding, in text the summary omits).
    `at`: where each of those lines is now, if they moved (the text is read there, the digest
    keeps the numbers given)."""
    import hashlib

    by_path: dict[str, set[int]] = {}
    for f in findings:
        by_path.setdefault(f.path, set()).update((f.span.line, f.span.end_line))
    out = {}
    for path, numbers in by_path.items():
        h = hashlib.blake2b(digest_size=12)
        for n in sorted(numbers):
            text = source_lines.line(path, at(n) if at is not None else n)
            h.update(b"%d\0%s\n" % (n, text.encode("utf-8", "surrogatepass")))
        out[path] = h.hexdigest()
    return out


def stands_on(finding, path: str, moved: dict[int, int]) -> bool:
    """Does `moved` (a file's lines: before -> after) know every line of `path` the finding stands
    on or cites?"""
    if finding.path == path and (finding.span.line not in moved or finding.span.end_line not in moved):
        return False
    return all(line in moved for _, where, line in finding.cites if where == path)


def moved_finding(finding, path: str, moved: dict[int, int]):
    """The finding with the lines of `path` it stands on and cites renamed through `moved`
    (which knows them all: `stands_on`)."""
    from dataclasses import replace

    from .model import Span

    changes = {}
    if finding.path == path:
        span = finding.span
        changes["span"] = Span(moved[span.line], span.column, moved[span.end_line], span.end_column)
    if any(where == path for _, where, _ in finding.cites):
        message, cites, shift = finding.message, [], 0
        for offset, where, line in finding.cites:
            offset += shift
            if where == path:
                number, now = str(line), str(moved[line])
                message = message[:offset] + now + message[offset + len(number):]
                shift += len(now) - len(number)
                line = moved[line]
            cites.append((offset, where, line))
        changes["message"], changes["cites"] = message, tuple(cites)
    return replace(finding, **changes) if changes else finding
