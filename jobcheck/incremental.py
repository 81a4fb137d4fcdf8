"""A run with the cache: the recorded findings when they still hold, else the project linked
anew from cached summaries and freshly summarised changed files.

A record (`cache.RunRecord`) holds what a run read, what its project phase looked at
(`observed.Observation`) and its findings. A later run of the same invocation reuses them when
the stamps of everything it read hold (`stamps`), else when each file it would read is unchanged
or edited where the analysis does not look — checked file by file when the folders hold, else by
finding the files again and replaying import resolution on the cached summary heads. An edit of
function bodies (and of module-level names nothing looked up) that leaves what the scans read
equal checks again only the functions it can affect (`recheck`). Anything else re-links.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from .cache import Cache, RunRecord, digest, write_entry
from .serialize import FormatError, head_of, unpack, unpack_head
from .stamps import folder_holds, stamps_hold, take_stamps
from .summary import ModuleSummary


def check_paths(paths: list[str], config, selection=None, *, force_exclude: bool = False, cache: Cache | None = None,
                jobs: int | None = None, progress=None, reuse_findings: bool = True, freeze: bool = False):
    """`api.check_paths` with the cache and the process pool, for the command line.

    When nothing the findings depend on changed since this invocation's last run, they are read
    back whole; otherwise unchanged files' summaries are read back and only changed files are
    summarised. What the findings depend on is every file `api.check_paths` reads — the ones
    given and the modules they import, found from the module-level parts of their summaries —
    with its content hash, the folders listed to find them, and jobcheck's own build.
    The returned Report has no `project` when the findings were read back: callers that need it
    (fixes, the job inventory) pass `reuse_findings=False`. `freeze` (for one-shot processes)
    hides what the run built from the cycle collector afterwards (see `parallel.gc_paused`)."""
    from .parallel import gc_paused

    with gc_paused(freeze=freeze):  # the project phase too builds many objects and no cycles
        return _check_paths(paths, config, selection, force_exclude, cache, jobs, progress, reuse_findings)


def _check_paths(paths, config, selection, force_exclude, cache, jobs, progress, reuse_findings):
    from . import api
    from .parallel import Summarizer

    selection = selection or api.Selection()
    invocation = None
    started = time.time_ns()
    if cache is not None:
        cache.touch()
        # One record per invocation (overwritten by its next run): what was asked, and how.
        invocation = digest(repr((cache.salt, sorted(vars(config).items()), selection, list(paths), force_exclude,
                                  os.getcwd())).encode())
    folders: set[str] = set()
    planned = previous = context_modules = None
    if invocation is not None and reuse_findings:
        reused, previous = _reuse(paths, config, selection, force_exclude, cache, invocation, started, folders)
        if isinstance(reused, api.Report):
            return reused
        if isinstance(reused, _Relink):
            planned, context_modules = _relink_plan(reused, paths, config, force_exclude, folders)
        else:
            planned = reused  # the files the attempt found (and `folders` the folders it listed), or None
    if planned is None:
        folders.clear()
        planned = _plan(paths, config, force_exclude, folders)
    with Summarizer(cache, jobs, progress) as summarizer:
        report = api.check_paths(paths, config, selection, summarizer=summarizer, force_exclude=force_exclude,
                                 folders=folders, observe=invocation is not None, planned=planned,
                                 context_modules=context_modules)
    if invocation is not None:
        summarizer.close()  # seals the inputs, if api.check_paths has not already
        if summarizer.sealed_inputs is None:
            return report  # a file could not be read: nothing to record
        stamps = take_stamps(summarizer.read_paths, folders, started, previous)
        state = _state_of(report)
        observation = report.project.observation()
        if observation is not None:
            from .fingerprint import SourceLines
            from .observed import finding_lines

            observation.lines = finding_lines(report.findings, SourceLines(keep=1))
        cache.store_run(invocation, summarizer.sealed_inputs, report.findings, report.files, len(planned), stamps,
                        observation.to_data() if observation is not None else None, state=state)
    return report


def _state_of(report) -> tuple | None:
    """What the run leaves for a re-check (`recheck.State`), as data; None when a finding of a
    check does not name the function it was checked for (a re-check could not replace it)."""
    from .recheck import State

    if any(f.function is None and f.code not in ("JC000", "JC001") for f in report.findings):
        return None
    state = State.capture(report.project)
    return None if state is None else state.to_data()


def _relink_plan(relink: _Relink, paths, config, force_exclude, folders: set[str]):
    """(the files given, as `api.plan_modules` gives them; the context modules, or None when the
    files found are not the recorded ones after all). `folders` collects every folder the run
    lists, and the ones the recorded run listed to resolve imports (they hold)."""
    planned = _plan(paths, config, force_exclude, folders)
    if [(display, str(path), module) for path, display, module, _ in planned] != relink.given:
        return planned, None
    folders.update(relink.folders)
    return planned, relink.context


def _plan(paths, config, force_exclude, folders: set[str]) -> list[tuple[Path, str, str, bool]]:
    """The files `paths` name, as `api.plan_modules` gives them; `folders` collects the folders
    listed, and the ones their module names depend on."""
    from . import api, files

    found = files.discover(paths, config.root, config.exclude + config.extend_exclude, force_exclude, folders)
    return api.plan_modules(found, folders)


def _decoded(data: bytes) -> str:
    from .engine import decode

    try:
        return decode(data)
    except UnicodeError:
        return data.decode("utf-8", "replace")


class _Miss(Exception):
    """The run would read something the recorded run did not: its findings cannot be reused."""


class _Heads:
    """A summariser for `api.check_paths` that checks, file by file in the order the run reads
    them, that each is what the recorded run read (same name, path and module; same content hash,
    or a changed file whose edit the recorded run's analysis would not see — see `observed`), and
    returns the module-level part of its summary, from the cache — enough to find which further
    files (imported modules) the run reads. Raises _Miss at the first difference that matters, so
    a changed file costs no more than reading the files before it. A file whose recorded time and
    size still hold is not read at all."""

    def __init__(self, cache: Cache, expected: tuple, stamps: tuple | None, record: RunRecord) -> None:
        self.cache = cache
        self.expected = expected
        self.seen = 0
        self.stamps = {path: (mtime, size) for path, mtime, size in stamps[0]} if stamps else {}
        self.record = record
        self.observation = None
        self.inputs: list = []  # what this run read: the record's inputs, edited files updated
        self.edited = False
        self.edited_modules: set[str] = set()  # those whose edits the analysis would not see
        self.findings: list | None = None  # the record's, once decoded
        self.moved: dict[str, dict[int, int]] = {}  # per edited file whose lines moved: before -> after
        self.moved_text: dict = {}  # and its text, if findings stand there

    def __call__(self, planned) -> list[ModuleSummary]:
        out = []
        for path, display, module, is_package in planned:
            if self.seen >= len(self.expected):
                raise _Miss(display)
            was_display, was_path, key, was_module = self.expected[self.seen]
            if (was_display, was_path, was_module) != (display, str(path), module):
                raise _Miss(display)
            head = None
            try:
                data, was_key, key = self._current(was_path, module, is_package, key)
            except OSError:
                raise _Miss(display) from None
            if key != was_key:
                head = self._edited(data, display, module, is_package, key, was_key)[0]
            if head is None:
                head = self.cache.load_packed(key)
                if head is None:
                    raise _Miss(display)  # gone from the cache: the run summarises it again
                head = head_of(head)
            try:
                summary = unpack_head(head)
            except FormatError:
                raise _Miss(display) from None
            summary.path = display
            self.inputs.append((display, str(path), key, module))
            self.seen += 1
            out.append(summary)
        return out

    def _current(self, path: str, module: str, is_package: bool, key: bytes) -> tuple[bytes | None, bytes, bytes]:
        """(the file's bytes if read, its recorded key, its key now): a file whose recorded time and
        size hold is not read, and keeps its key. OSError if it cannot be read."""
        stamp = self.stamps.get(path)
        if stamp is not None:
            try:
                st = os.stat(path)
            except OSError:
                st = None
            if st is not None and (st.st_mtime_ns, st.st_size) == stamp:
                return None, key, key
        data = Path(path).read_bytes()
        return data, key, self.cache.summary_key(digest(data), module, is_package)

    def _edited(self, data: bytes, display: str, module: str, is_package: bool, key: bytes,
                was_key: bytes) -> tuple[bytes, ModuleSummary, ModuleSummary]:
        """(the packed head of an edited file, its summary before, after), if the recorded
        analysis would not see the edit; else _Miss."""
        old, new, blob = self._summaries(data, display, module, is_package, key, was_key)
        if not self._unobserved(display, data, old, new):
            raise _Miss(display)
        self.edited = True
        self.edited_modules.add(module)
        return head_of(blob), old, new

    def _summaries(self, data: bytes, display: str, module: str, is_package: bool, key: bytes,
                   was_key: bytes) -> tuple[ModuleSummary, ModuleSummary, bytes]:
        """An edited file's summary before and after (and packed), the new one cached for the run
        that re-links, should it come to that. _Miss if the old one is gone."""
        from . import engine
        from .serialize import pack

        old = self.cache.load_summary(was_key, display)
        if old is None:
            raise _Miss(display)  # nothing to compare with
        blob = self.cache.load_packed(key)  # there already if the file-by-file check came first
        try:
            new = unpack(blob) if blob is not None else None
        except FormatError:
            new = None
        if new is None:
            blob = pack(engine.summarize_bytes(data, display, module, is_package))
            entry = self.cache.summary_entry(key)
            if entry is not None:
                write_entry(Path(entry), key, blob)
            new = unpack(blob)  # compared as the cache will give it back
        new.path = display  # the key leaves out how the file was named
        return old, new, blob

    def _unobserved(self, display: str, data: bytes, old: ModuleSummary, new: ModuleSummary) -> bool:
        """Would the recorded project phase read nothing different from `new` than from `old`,
        positions aside? If lines moved, the findings must stand on and cite only lines the
        phase read (it can tell where those went); `moved` keeps where they went."""
        from .observed import finding_lines, stands_on

        if self.observation is None:
            self.observation = self.record.observation()
            if self.observation is None:
                return False
        moved = self.observation.moved_lines(old, new)
        if moved is None:
            return False
        shifted = any(a != b for a, b in moved.items())
        recorded = self.observation.lines.get(display)
        findings = self._findings() if shifted or recorded is not None else []
        if findings is None:
            return False
        if shifted and not all(stands_on(f, display, moved) for f in findings):
            return False
        if recorded is not None:
            from .fingerprint import SourceLines

            text = SourceLines({display: _decoded(data)})
            here = [f for f in findings if f.path == display]
            if finding_lines(here, text, moved.get if shifted else None).get(display) != recorded:
                return False  # the text findings count columns in changed
            if shifted:
                self.moved_text[display] = text
        if shifted:
            # A file read under two module names (a script's sibling) is compared twice: both
            # maps must agree where they meet.
            known = self.moved.setdefault(display, {})
            if any(known.get(a, b) != b for a, b in moved.items()):
                return False
            known.update(moved)
        return True

    def _findings(self) -> list | None:
        if self.findings is None:
            self.findings = self.record.findings()
        return self.findings

    def findings_now(self) -> list | None:
        """The recorded findings, with the lines of the files whose lines moved renamed; and the
        observation, brought up to date likewise."""
        from .model import Finding
        from .observed import finding_lines, moved_finding

        findings = self._findings()
        if findings is None or not self.moved:
            return findings
        for path, moved in self.moved.items():
            findings = [moved_finding(f, path, moved) for f in findings]
        for path, text in self.moved_text.items():
            self.observation.lines[path] = finding_lines([f for f in findings if f.path == path], text)[path]
        return sorted(findings, key=Finding.sort_key)


@dataclass
class _Relink:
    """The project must be linked again, and the record says what the run reads: the same files
    (every folder holds) and the same context modules (every edited file leads where it led)."""

    given: list[tuple[str, str, str]]  # (display, path, module) of the files given, in order
    context: list[tuple[Path, str, str, bool]]  # the context modules, as `api.plan_modules` gives files
    folders: list[str]  # every folder the recorded run listed


def _reuse(paths, config, selection, force_exclude, cache: Cache, invocation: bytes, started: int, folders: set[str]):
    """(the recorded findings as a Report if they still hold, else the files discovered on the
    way as `api.plan_modules` gives them, or None if it did not get that far; the record's stamps),
    so the run that follows need not list the files again, nor digest unchanged folders."""
    from .api import Report

    record = cache.load_run(invocation)
    if record is None:
        return None, None
    if record.stamps is not None and stamps_hold(record.stamps):
        findings = record.findings()
        if findings is not None:
            return Report(findings=findings, files=record.checked, project=None, reused="stamps"), None  # type: ignore[arg-type]
    reused = _reuse_by_inputs(cache, invocation, record, started, config, selection)
    if reused is _RELINK:
        return None, record.stamps
    if isinstance(reused, _Relink):
        return reused, record.stamps
    if reused is not None:
        return reused, None
    return _reuse_by_content(paths, config, force_exclude, cache, invocation, record, started, folders), record.stamps


def _reuse_by_inputs(cache: Cache, invocation: bytes, record: RunRecord, started: int, config, selection):
    """The recorded findings, if they hold, checked file by file without finding the files again.

    When every folder the recorded run listed still holds the entries it held, the run would find
    the same files, and the same modules for their imports unless an edited file now names other
    things. So each file the record lists is checked alone — its time and size, else its content
    hash — and an edited one must name what it named before (`_names_followed`) besides leaving
    what the analysis looks at unchanged (`_Heads._edited`). None when that cannot be settled
    here: the caller then replays discovery and import resolution (`_reuse_by_content`);
    `_RELINK` when an edit the analysis looks at settles that the project must be linked again,
    or a `_Relink` that also says which files the run reads. When the edits that the analysis
    looks at change only function bodies, and nothing its scans read, the functions they can
    affect are checked again instead (`recheck`)."""
    stamps = record.stamps
    if not stamps or len(stamps) != 4 or stamps[3] is not True:
        return None
    try:
        if not all(folder_holds(*folder) for folder in stamps[1]):
            return None
    except (TypeError, ValueError):
        return None
    inputs = record.inputs
    heads = _Heads(cache, inputs, stamps, record)
    relink = False
    bodies: dict | None = {}  # display -> (old summary, new summary, names looked up), while every edit may be one
    state = None
    nowhere = _Nowhere(inputs[:record.given], inputs[record.given:], config)
    try:
        for index, (display, path, key, module) in enumerate(inputs):
            is_package = os.path.basename(path) == "__init__.py"
            try:
                data, was_key, key = heads._current(path, module, is_package, key)
            except OSError:
                return None
            if key != was_key:
                old, new, _ = heads._summaries(data, display, module, is_package, key, was_key)
                given = index < record.given
                same_names = _names_followed(old, given, is_package) == _names_followed(new, given, is_package)
                if heads._unobserved(display, data, old, new):
                    heads.edited = True
                    heads.edited_modules.add(module)
                    if not same_names:
                        return None  # finding the files again settles what the run reads
                elif not same_names and not (given and nowhere.same_followed(old, new, is_package)):
                    return _RELINK
                else:
                    relink = True  # and the files it reads are still the recorded ones
                    if bodies is not None:
                        state = state or record.state()
                        heads.observation = heads.observation or record.observation()
                        if state is None or heads.observation is None or display in bodies:
                            bodies = None
                        else:  # whether the edit is one `recheck` takes (`body_edit`) is asked there
                            bodies[display] = (old, new, heads.observation.names_in(module))
            heads.inputs.append((display, path, key, module))
    except _Miss:
        return _RELINK  # a replay would reach the same file with the same content
    folders = [folder[0] for folder in stamps[1]]
    folders.extend(sorted(set(nowhere.listed()).difference(folders)))
    if relink:
        given = record.given
        if bodies:
            rechecked = _rechecked(cache, invocation, record, heads, state, bodies, config, selection, folders, started)
            if rechecked is not None:
                return rechecked
        return _Relink(
            [(display, path, module) for display, path, _, module in inputs[:given]],
            [(Path(path), display, module, os.path.basename(path) == "__init__.py")
             for display, path, _, module in inputs[given:]],
            folders,
        )
    return _reused(cache, invocation, record, heads, folders, started)


_RELINK = "relink"


def _rechecked(cache: Cache, invocation: bytes, record: RunRecord, heads: _Heads, state, bodies: dict, config,
               selection, folders, started: int):
    """The findings after edits of function bodies, from the functions they can affect checked
    again (`recheck`), as a Report, with the record brought up to date; None if that cannot be
    settled without linking the whole project."""
    from . import recheck
    from .api import Report
    from .observed import finding_lines

    observation = heads.observation or record.observation()
    findings = heads.findings_now()  # edits elsewhere that only moved lines, renamed
    if findings is None or observation is None:
        return None
    for path, moved in heads.moved.items():
        state = state.renamed(path, moved)
        if state is None:
            return None
    inputs = heads.inputs
    by_module: dict[str, list] = {}
    by_path: dict[str, tuple] = {}
    for entry in inputs:
        by_module.setdefault(entry[3], []).append(entry)
        by_path[entry[0]] = entry
    if any(len(by_module[new.module]) > 1 for _, new, _ in bodies.values()):
        return None  # another file has the edited one's module name: which one the project holds is not settled here

    def read(module: str):
        for display, _, key, _ in by_module.get(module, ()):
            summary = cache.load_summary(key, display)
            if summary is None or summary.error is None:
                return summary
        return None

    def read_path(display: str):
        entry = by_path.get(display)
        return None if entry is None else cache.load_summary(entry[2], display)

    given = [(display, path, module) for display, path, _, module in inputs[:record.given]]
    result = recheck.run(state, findings, bodies, read, read_path, config, selection, given)
    if result is None:
        return None
    for module, names in result.looked_up.items():
        observation.looked_up[module] = sorted(set(observation.looked_up.get(module, ())).union(names))
    touched = set(bodies) | {f.path for f in set(findings).symmetric_difference(result.findings)}
    now = [f for f in result.findings if f.path in touched]
    from .fingerprint import SourceLines

    lines = finding_lines(now, SourceLines(keep=1))
    for path in touched:
        observation.lines.pop(path, None)
    observation.lines.update(lines)
    stamps = take_stamps([path for _, path, _, _ in inputs], folders, started, record.stamps)
    cache.store_run(invocation, inputs, result.findings, record.checked, record.given, stamps,
                    observation.to_data(), state=result.state.to_data())
    return Report(findings=result.findings, files=record.checked, project=None,  # type: ignore[arg-type]
                  reused="rescanned" if result.rescanned else "rechecked")


class _Nowhere:
    """Which names used in a given module lead context loading (`context.load`) nowhere: into
    a given module, or to no module of ours. An edit that adds or drops only such names reads
    the same files; whether it does is asked the way `context.load` would ask it."""

    def __init__(self, given: tuple, context: tuple, config) -> None:
        self.inputs = given
        self.given = {module: path for _, path, _, module in given}
        self.loaded = set(self.given).union(module for *_, module in context)
        self.given_tops = {module.partition(".")[0] for module in self.given}
        self.config = config
        self._roots: list | None = None
        self.listings: dict = {}
        self.memo: dict[str, bool] = {}

    def listed(self) -> list[str]:
        from .context import listed_folders

        return listed_folders(self.listings)

    def same_followed(self, old: ModuleSummary, new: ModuleSummary, is_package: bool) -> bool:
        """Do the names a given module's two versions lead context loading along agree?"""
        def kept(head):
            return [[n for n in names if not self._leads_nowhere(n)] for names in _names_followed(head, True, is_package)]

        return kept(old) == kept(new)

    def _roots_now(self) -> list:
        if self._roots is None:
            from .api import import_roots

            planned = [(path, display, module, os.path.basename(path) == "__init__.py")
                       for display, path, _, module in self.inputs]
            self._roots = import_roots(planned, self.config)
        return self._roots

    def _leads_nowhere(self, name: str) -> bool:
        found = self.memo.get(name)
        if found is None:
            found = self.memo[name] = self._nowhere(name)
        return found

    def _nowhere(self, name: str) -> bool:
        from .context import submodule, module_file

        clean = name.replace("()", "") if "(" in name else name
        head = clean.partition(".")[0]
        if head not in self.given_tops:
            return module_file(head, self._roots_now(), self.listings) is None  # a library, or no module
        prefix = clean
        while prefix and prefix not in self.loaded:
            cut = prefix.rfind(".")
            prefix = prefix[:cut] if cut > 0 else ""
        if not prefix or prefix not in self.given:
            return False  # a module to find, or a context module's definitions to follow
        path = self.given[prefix]
        rest = clean[len(prefix) + 1:].split(".") if len(clean) > len(prefix) else []
        if rest and os.path.basename(path) == "__init__.py":
            below = submodule(prefix, os.path.dirname(os.path.abspath(path)), rest, self.listings)
            if below is not None and below[0] not in self.given:
                return False
        return True


def _names_followed(head: ModuleSummary, given: bool, is_package: bool):
    """What `context.load` follows from a module. From a given one, every name it uses, in order
    (the values of its name table too, but not its own definitions: `mod.f -> pkg.mod.f` leads
    back to itself, unless a package's definition shares a submodule's name). From a module read
    as context, the entries it looks up by key."""
    if not given:
        return head.imports, head.symbols, head.uses
    own = head.module + "."
    return (
        head.imported,
        [v for k, v in head.imports.items() if is_package or v != own + k],
        [v for k, v in head.symbols.items() if v and (is_package or v != own + k)],
        [name for names in head.uses.values() for name in names.split()],
    )


def _reused(cache: Cache, invocation: bytes, record: RunRecord, heads: _Heads, folders, started: int):
    """The recorded findings as a Report (None if they cannot be decoded), with the record brought
    up to date: new times, and the edited files' summaries."""
    from .api import Report

    findings = heads.findings_now()
    if findings is None:
        return None
    stamps = take_stamps([path for _, path, _, _ in heads.inputs], folders, started, record.stamps)
    if stamps != record.stamps or heads.edited:
        observation = heads.observation or record.observation()
        encoded = None if heads.moved else record.encoded_findings()  # as recorded: not encoded again
        cache.store_run(invocation, heads.inputs, findings, record.checked, record.given, stamps,
                        observation.to_data() if observation is not None else None, encoded,
                        _state_after(record, heads.moved, heads.edited_modules))
    return Report(findings=findings, files=record.checked, project=None,  # type: ignore[arg-type]
                  reused="unobserved" if heads.edited else "content")


def _state_after(record: RunRecord, moved: dict[str, dict[int, int]], edited: set[str]):
    """The record's state (`recheck.State`) after edits the analysis would not see (`edited`:
    their modules; `moved`: where their lines went), as data."""
    from dataclasses import replace

    from .recheck import with_stale

    if not moved:
        return with_stale(record.state_data(), edited) if edited else record.packed_state()  # else as recorded
    state = record.state()
    for path, lines in moved.items():
        if state is None:
            return None
        state = state.renamed(path, lines)
    return None if state is None else replace(state, stale=state.stale | edited).to_data()


def _reuse_by_content(paths, config, force_exclude, cache: Cache, invocation: bytes, record: RunRecord, started: int,
                      folders: set[str]):
    from . import api, context

    inputs = record.inputs
    heads = _Heads(cache, inputs, record.stamps, record)
    # What `api.check_paths` reads before its project phase, in the same order: the files
    # given, then the modules they import (found from the summary heads). This mirrors its
    # first lines; should they change, the record simply stops matching (a test asserts
    # that records are reused). The project phase itself is not run on heads.
    planned = _plan(paths, config, force_exclude, folders)
    try:
        context.load(heads(planned), api.import_roots(planned, config), heads, folders=folders)
    except _Miss:
        return planned
    if heads.seen != len(inputs):
        return planned
    # Same content (or edits nothing looked at), new times: record them, and the edited files.
    reused = _reused(cache, invocation, record, heads, folders, started)
    return planned if reused is None else reused
