"""After an edit of function bodies: check again only the functions whose findings it can change.

A full project phase leaves a `State` in its run record: what its scans found (the jobs, retry
wrappers, task names, signal receivers), which parts of which bodies they read, each reached
function's callees, and the import rewrites of linking. An edit qualifies (`body_edit`) when it
changes function bodies, and entries of the module's name tables (imports, names, assignments)
that no step read, and nothing else the scans read, lines renamed: the module's classes (of
their attributes, those something read by name: `Project.note_attr`) and suppressions; every
function's signature and the decorators a scan can read (`Project.scans_read_decorator`: a
framework's, Django's `receiver`, any with a literal `name=`; the scans never see the others);
the calls of the changed bodies that the scans ask for by name and that their filters pass
(`calls_named`: a list's `append` is not django-q's) or, with Airflow, every call its index
keeps, and the regions around them; the imports frameworks ask about and the rewrites linking
makes. Then what the scans found is what they would find now, and a finding of function `f`
(every finding names the function it is checked for) can change only if `f` reaches a changed
body.

An edit of what the scans read of those functions — their decorators, the calls the scans ask
for, the regions around them — qualifies too, everything else equal as above: then every scan
runs again on the lazily loaded project, its whole-project loops replayed from the record with
only the edited modules' items tested anew (`sources`), and what they find now is compared
with what they found. Functions, classes and name table entries may then come, go or change
too: the record says who looked each name up (`lookers`), and the functions that looked a
changed one up, or used a resolved name whose resolution changed with it, are checked again
(with whatever reaches them), the modules whose sites did are scanned again (`_lookers`).
That fails, and the run links again, when a job the checks asked about by name (an enqueue of
it) appeared or went, a signal's receivers changed (the call edges would), linking probed a
changed name, or the checks looked one up for no function.

`run` then builds a project that loads summaries as lookups reach them (`lazy`), walks the
callees again from the recorded ones (only changed bodies are asked anew), and runs the checks
for the functions that reach a changed body, those whose job changed (found, lost, or found
otherwise), and those newly reached.
This relies on what the checks remember being independent of the order they ask in: walks
through call cycles (`Project.call_effects`) and through returned values (JC101's) keep no
answer that depends on where the walk started. Everything else keeps its findings, lines
renamed. Anything the re-check cannot settle — a summary gone from the cache, a step that
would list the whole project, a line the rename does not know — sends the run back to linking
the whole project. tests/test_recheck.py compares re-checked findings with a fresh run's for
hundreds of random edits of bodies, of name tables, of decorators, of calls scans ask for and
of class attributes; a table of targeted edits says which way each is had.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .jobs import Anchor, JobSite, RetryPolicy, policy_data, policy_from, site_data, site_from
from .observed import (event_lines, function_lines, module_lines, module_parts, renamed_events,
                       renamed_function, renamed_module)
from .summary import FunctionSummary, ModuleSummary

_VERSION = 11


@dataclass
class State:
    modules: list[str]  # the linked project's modules, in order
    rewrites: dict[str, dict[str, str]]
    jobs: dict[str, JobSite]
    retry_wrappers: dict[str, RetryPolicy]
    job_names: dict[str, str]
    signal_receivers: dict[str, list[str]]
    edges: dict[str, list[str] | None]  # every reached function -> its callees
    bodies_read: dict[str, set[str]]  # qualname -> the `Project.body` views the scans read
    whole_attrs: set[str]  # call names some scan read every call of (`calls_named`)
    call_readers: dict[str, list[str]]  # the other call names asked -> the filters of the scans that asked
    all_calls: bool
    index_reads: set[str]  # callee names Airflow's call index was asked for
    scans_asked: set[str]  # names the scans looked up
    attrs_read: dict[str, set[str]]  # class -> attributes read by name (`Project.note_attr`)
    # What the scans' whole-project loops picked (`sources`); kept marshalled, as read, until a
    # replay needs it (most of a large record, which a re-check would otherwise decode and encode).
    sources: dict[str, list] | bytes
    enqueues_asked: set[str]  # names the checks asked whether they are jobs (`Project.effect`)
    # Who looked each name up (`lookers.Lookers.data`: functions, the modules' sites, outside
    # them): the full run's, then each re-check's additions (`lookers.combined`), each kept
    # marshalled, as read, until an edit of a looked-up name needs them.
    lookers: list[tuple | bytes]
    linker_asked: set[str]  # names linking probed (`relink`)
    # Modules edited since the scans last ran: what `sources` holds of them (decorator and event
    # numbers, lines) may be out of date, so a replay tests their items anew.
    stale: set[str]

    @classmethod
    def capture(cls, project) -> State | None:
        """What a full project phase leaves for a re-check (None if the checks did not walk it)."""
        if "job_context" not in project.__dict__:
            return None  # the checks did not run (`Project.finish_scans` ran every scan before them)
        lookers = project.lookers_data()
        return cls(list(project.modules), project.rewrites, project.jobs, project.retry_wrappers,
                   project.job_names, project.signal_receivers, project.call_edges, project.bodies_read,
                   set(project.whole_attrs), {a: sorted(keys) for a, keys in project.call_readers.items()},
                   project.scans_all_calls, set(project.index_reads),
                   set(project.scans_asked), {q: set(v) for q, v in project.attrs_read.items()},
                   project.__dict__.get("_sources", {}), set(project.enqueues_asked),
                   [lookers] if lookers else [],
                   set(project.linker_asked or ()), set())

    def to_data(self) -> tuple:
        """(version, the stale modules, the rest marshalled): `with_stale` marks modules stale
        without decoding the rest."""
        import marshal

        rest = (self.modules, self.rewrites, [site_data(s) for s in self.jobs.values()],
                {q: policy_data(p) for q, p in self.retry_wrappers.items()}, self.job_names,
                self.signal_receivers, self.edges, {q: sorted(v) for q, v in self.bodies_read.items()},
                sorted(self.whole_attrs), self.call_readers, self.all_calls, sorted(self.index_reads),
                sorted(self.scans_asked), {q: sorted(v) for q, v in self.attrs_read.items()},
                self.sources if isinstance(self.sources, bytes) else marshal.dumps(self.sources),
                sorted(self.enqueues_asked),
                [layer if isinstance(layer, bytes) else marshal.dumps(layer) for layer in self.lookers],
                sorted(self.linker_asked))
        return (_VERSION, sorted(self.stale), marshal.dumps(rest))

    @classmethod
    def from_data(cls, data) -> State | None:
        import marshal

        try:
            version, stale, rest = data
            if version != _VERSION:
                return None
            (modules, rewrites, jobs, wrappers, job_names, receivers, edges, bodies, whole, readers,
             all_calls, index_reads, scans_asked, attrs_read, sources, enqueues_asked, lookers,
             linker_asked) = marshal.loads(rest)
            sites = [site_from(d) for d in jobs]
            return cls(list(modules), dict(rewrites), {s.function: s for s in sites},
                       {q: policy_from(p) for q, p in wrappers.items()}, dict(job_names), dict(receivers), dict(edges),
                       {q: set(v) for q, v in bodies.items()}, set(whole), {a: list(k) for a, k in readers.items()},
                       bool(all_calls), set(index_reads), set(scans_asked),
                       {q: set(v) for q, v in attrs_read.items()}, bytes(sources), set(enqueues_asked),
                       [bytes(layer) for layer in lookers], set(linker_asked), set(stale))
        except (TypeError, ValueError, AttributeError, EOFError):
            return None

    def renamed(self, path: str, moved: dict[int, int]) -> State | None:
        """The state with the lines of `path` renamed (None if it holds a line `moved` lacks)."""
        try:
            jobs = {q: _renamed_site(s, path, moved) for q, s in self.jobs.items()}
            wrappers = {q: _renamed_policy(p, path, moved) for q, p in self.retry_wrappers.items()}
        except KeyError:
            return None
        return replace(self, jobs=jobs, retry_wrappers=wrappers)


def with_stale(data, modules: set[str]):
    """A state's data (`State.to_data`) with `modules` marked stale (None if it is not one)."""
    try:
        version, stale, rest = data
    except (TypeError, ValueError):
        return None
    return (version, sorted(set(stale) | modules), rest) if version == _VERSION else None


def _renamed_anchor(a: Anchor, path: str, moved: dict[int, int]) -> Anchor:
    if a.path != path:
        return a
    return Anchor(a.path, moved[a.line], a.col, moved[a.end_line], a.end_col)


def _renamed_policy(p: RetryPolicy | None, path: str, moved) -> RetryPolicy | None:
    if p is None or p.anchor.path != path:
        return p
    return replace(p, anchor=_renamed_anchor(p.anchor, path, moved))


def _renamed_site(s: JobSite, path: str, moved) -> JobSite:
    if s.path != path and s.anchor.path != path and (s.retry is None or s.retry.anchor.path != path):
        return s
    return replace(s, anchor=_renamed_anchor(s.anchor, path, moved), retry=_renamed_policy(s.retry, path, moved),
                   triggers=set(s.triggers), settings=dict(s.settings))


# ---- which edits qualify ---------------------------------------------------------------------


@dataclass
class BodyEdit:
    moved: dict[int, int]  # every line the scans read, and every line of an unchanged function: before -> after
    changed: set[str]  # the functions whose bodies changed
    imports_changed: bool = False  # what the module imports (linking may rewrite imports differently)
    # Names of the calls Airflow's index keeps in the changed bodies, before and after: the scan
    # reads those it is asked for by callee (`_index_unread`).
    indexed: frozenset = frozenset()
    # What the scans read of the changed functions (their decorators, calls, regions) changed:
    # the scans run again (`sources`), and `moved` holds no line of a changed function's but its `def`.
    rescan: bool = False
    # The qualified names something looked up that the edit changed (defined otherwise, or no
    # longer): what looked them up is checked or scanned again (`_lookers`).
    looked: frozenset = frozenset()


def body_edit(state: State, old: ModuleSummary, new: ModuleSummary, looked_up: set[str], project,
              rescan: bool = False) -> BodyEdit | None:
    """How `new` differs from `old` if only function bodies changed, and entries of the module's
    name tables (imports, names, assignments) that nothing read (`looked_up`: the qualified names
    the recorded project phase looked up in the module), and nothing the scans read (see the
    module docstring); else None. `project`: the project after the edits, which says which
    calls and decorators of a changed body a scan reads (`_ScanView`). `rescan`: what the scans
    read of the changed functions may differ too (their decorators, calls and regions), and
    functions, classes and name table entries may come, go or change, those something looked
    up listed in `looked`: the scans are to run again."""
    from .frameworks import gate_imports

    if old.error is not None or new.error is not None or old.module != new.module:
        return None
    # Of a class, only the attributes something read by name are compared (all, if one step read
    # them all): what it is, where, its bases, decorators, docstring and methods always are.
    old = replace(old, classes={q: _class_read(c, state.attrs_read) for q, c in old.classes.items()})
    new = replace(new, classes={q: _class_read(c, state.attrs_read) for q, c in new.classes.items()})
    came_or_went = old.functions.keys() ^ new.functions.keys()
    classes_changed = _classes_changed(old, new)
    looked = {q for q in came_or_went | classes_changed if q in looked_up}
    if came_or_went or classes_changed:
        if not rescan:
            return None
        old, new = _shared(old, new, classes_changed)
        if old is None:
            return None
    if not rescan and gate_imports(old) != gate_imports(new):
        return None  # frameworks ask every module whether it imports their library (a replay asks again)
    keys = _changed_keys(old, new)
    if keys:
        if _read_by_shape(keys, old, new):
            return None
        looked.update(q for k in keys if (q := f"{old.module}.{k}") in looked_up)
    if looked and not rescan:
        return None
    # The module's own code is a body too (what the scans read of it is compared below); it is
    # never checked as a function, and changes whenever lines below its first statement move.
    changed = {q for q, fn in old.functions.items() if _shape(fn) != _shape(new.functions[q])} | came_or_went
    if not rescan and any("all" in state.bodies_read.get(q, ()) for q in changed):
        return None
    indexed: set[str] = set()
    if state.all_calls and not rescan:
        from .frameworks.airflow_index import is_relevant, relevant_tops

        # The index keeps calls under the module's imported names too (for folders on sys.path):
        # an import added or dropped starts or stops keeping some calls of unchanged functions.
        tops = {m.partition(".")[0] for m in state.modules}
        kept_before, kept_after = relevant_tops(tops, old), relevant_tops(tops, new)
        for mod in (old, new):
            for q, fn in mod.functions.items():
                for ev in fn.events:
                    kept = is_relevant(ev, kept_before), is_relevant(ev, kept_after)
                    if (q in changed and any(kept)) or kept[0] != kept[1]:
                        if "python_callable" in ev.kwargs:
                            return None  # the scan reads every such call
                        indexed.add(ev.name)
    if keys:  # the entries that changed are compared no further
        old = replace(old, assigns={k: v for k, v in old.assigns.items() if k not in keys})
        new = replace(new, assigns={k: v for k, v in new.assigns.items() if k not in keys})
    view = _ScanView(state, project, new, rescan)
    was, now = _lines(old, changed, view), _lines(new, changed, view)
    if len(was) != len(now):
        return None
    moved = dict(zip(was, now))
    try:
        before = _compared(old, changed, view, moved)
    except KeyError:
        return None
    if before != _compared(new, changed, view, None):
        return None
    return BodyEdit(moved, changed, old.imported != new.imported, frozenset(indexed), rescan, frozenset(looked))


def _classes_changed(old: ModuleSummary, new: ModuleSummary) -> set[str]:
    """The classes added, dropped, or changed in what is compared of them (lines aside)."""
    out = old.classes.keys() ^ new.classes.keys()
    out.update(q for q in old.classes.keys() & new.classes.keys()
               if _class_shape(old.classes[q]) != _class_shape(new.classes[q]))
    return out


def _class_shape(cls):
    """A class with each line number replaced by its rank among the class's lines."""
    from .observed import renamed_module

    alone = ModuleSummary(path="", module="", classes={cls.qualname: cls})
    lines: set[int] = set()
    module_lines(alone, lines)
    return renamed_module(alone, {line: rank for rank, line in enumerate(sorted(lines))})[2][cls.qualname]


def _shared(old: ModuleSummary, new: ModuleSummary, classes_changed: set[str]) -> tuple:
    """Both versions without the classes that changed and with only the functions they share, if
    those come in the same order: the scans find what they make of the rest again, and nothing
    else compares them."""
    shared = [q for q in old.functions if q in new.functions]
    if shared != [q for q in new.functions if q in old.functions]:
        return None, None
    return tuple(replace(mod, functions={q: mod.functions[q] for q in shared},
                         classes={q: c for q, c in mod.classes.items() if q not in classes_changed})
                 for mod in (old, new))


def _class_read(cls, attrs_read: dict[str, set[str]]):
    from .project import ALL_ATTRS

    read = attrs_read.get(cls.qualname, set()) | attrs_read.get(ALL_ATTRS, set())
    if ALL_ATTRS in read:
        return cls
    return replace(cls, attrs={k: v for k, v in cls.attrs.items() if k in read},
                   attr_types={k: v for k, v in cls.attr_types.items() if k in read})


class _ScanView:
    """What the scans can read of a changed function: the calls whose names they asked for and
    that their filters pass (`calls_named`), the parts of the body they asked for
    (`Project.body`), the decorators they can read (`Project.scans_read_decorator`), its name,
    place and return type, and its parameters and `async` if they looked it up by name
    (`Project.finish_scans`). With `rescan` (the scans run again), only its name, place and
    return type, and its parameters if they were looked up: the scans read the rest anew.
    Calls and decorators, old and new, are asked of the project after the edit, through names
    only: the edit changed no entry of a name table the recorded run looked up, and that run
    looked up the name of every decorator and of every call it asked for, so each is answered
    as that run answered it."""

    def __init__(self, state: State, project, module: ModuleSummary, rescan: bool = False) -> None:
        self.state, self.project, self.module, self.rescan = state, project, module, rescan
        self._calls: dict[int, bool] = {}

    def reads_call(self, ev) -> bool:
        from .project import scans_read_call

        found = self._calls.get(id(ev))
        if found is None:
            found = self._calls[id(ev)] = scans_read_call(self.project, self.module, ev, self.state.whole_attrs,
                                                          self.state.call_readers)
        return found

    def scanned(self, fn: FunctionSummary) -> list:
        from .project import BODY_VIEWS

        if self.rescan:
            return []
        views = self.state.bodies_read.get(fn.qualname, ())
        seen = {id(ev) for view in views for ev in BODY_VIEWS[view](fn.events)}
        return [ev for ev in fn.events if id(ev) in seen or self.reads_call(ev)]

    def decorators(self, fn: FunctionSummary) -> list:
        if self.rescan:
            return []
        return [d for d in fn.decorators if self.project.scans_read_decorator(self.module, d[0])]

    def signature(self, fn: FunctionSummary) -> FunctionSummary:
        loose = {} if fn.qualname in self.state.scans_asked else {"params": [], "is_async": False}
        return replace(fn, end_line=fn.line, docstring=None, doc_line=None, events=[], regions=[], sinks=[],
                       returns=(), handlers=[], decorators=self.decorators(fn), **loose)


def _changed_keys(old: ModuleSummary, new: ModuleSummary) -> set[str]:
    """The names whose entries differ between two versions of a module's name tables (an
    assignment's line aside)."""
    out: set[str] = set()
    for a, b in ((old.imports, new.imports), (old.symbols, new.symbols)):
        out.update(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    a, b = old.assigns, new.assigns
    out.update(k for k in a.keys() | b.keys() if k not in a or k not in b or [a[k][0], *a[k][2:]] != [b[k][0], *b[k][2:]])
    return out


def _read_by_shape(keys: set[str], old: ModuleSummary, new: ModuleSummary) -> bool:
    """Did a step of the recorded project phase read these entries other than by name? Lookups
    by name are recorded (`Project.note_read`, and every lookup of a qualified name); two scans
    read assignments by shape instead: Celery's beat schedules by name, and dynamic base classes
    (`Base = load(settings.X)`) every call assigned in a module with a class built on a call."""
    from .frameworks.celery import is_schedule_name

    assigned = [v for k in keys for v in (old.assigns.get(k), new.assigns.get(k)) if v is not None]
    if any(is_schedule_name(k) for k in keys if k in old.assigns or k in new.assigns):
        return True
    built_on_calls = any(base and base.endswith("()") for mod in (old, new) for cls in mod.classes.values()
                         for base in cls.bases)
    return built_on_calls and any(v[0][0] == "call" for v in assigned)


def _shape(fn: FunctionSummary) -> FunctionSummary:
    """A function with each line number replaced by its rank among the function's lines: equal if
    the function only moved, or if lines were added or dropped only between its lines (in a
    function nested in it, say). Which functions count as changed only decides what is compared
    whole: an unchanged one must then be equal line for line under the module's line map."""
    lines: set[int] = set()
    function_lines(fn, lines)
    return renamed_function(fn, {line: rank for rank, line in enumerate(sorted(lines))})


def _lines(mod: ModuleSummary, changed: set[str], view: _ScanView) -> list[int]:
    lines: set[int] = set()
    module_lines(mod, lines)
    for q, fn in mod.functions.items():
        if q not in changed:
            function_lines(fn, lines)
            continue
        lines.add(fn.line)
        decorators = view.decorators(fn)
        lines.update(d[1] for d in decorators)
        lines.update(d[3] for d in decorators)
        scanned = view.scanned(fn)
        event_lines(scanned, lines)
        if scanned:
            for r in fn.regions:
                lines.update((r.line, r.end_line))
    return sorted(lines)


def _compared(mod: ModuleSummary, changed: set[str], view: _ScanView, moved) -> tuple:
    """What the scans read of a module, and the unchanged functions whole, lines renamed through
    `moved` (None: as they are)."""
    at = moved if moved is not None else _Same()
    functions = []
    for q, fn in mod.functions.items():
        if q not in changed:
            functions.append(renamed_function(fn, at) if moved is not None else fn)
            continue
        scanned = view.scanned(fn)
        regions = {r.id: replace(r, line=at[r.line], end_line=at[r.end_line]) for r in fn.regions} if scanned else {}
        events = [(ev.kind, ev.name, ev.attr, ev.line, ev.col, ev.end_line, ev.end_col, ev.args, ev.kwargs, ev.ref,
                   ev.sql, [regions[r] for r in ev.regions if r in regions])
                  for ev in renamed_events(scanned, at)]
        functions.append((renamed_function(view.signature(fn), at), events, list(regions.values())))
    module = renamed_module(mod, moved) if moved is not None else module_parts(mod)
    return (*module, functions)


class _Same:
    def __getitem__(self, line: int) -> int:
        return line


# ---- the re-check ----------------------------------------------------------------------------


@dataclass
class Rechecked:
    findings: list
    state: State
    looked_up: dict[str, list[str]]  # what the re-check looked up (`Observation.looked_up`)
    checked: int  # functions checked again
    loaded: int  # summaries read
    rescanned: bool = False  # the scans ran again (an edit of what they read)


def run(state: State, findings: list, edits: dict[str, tuple[ModuleSummary, ModuleSummary, set[str]]], read,
        read_path, config, selection, given: list[tuple[str, str]]) -> Rechecked | None:
    """The findings a full run would give after `edits` (display path -> (old summary, new
    summary, the names the recorded run looked up in the module)), from the recorded `state`
    and `findings`; None if an edit does not qualify (`body_edit`) or if that cannot otherwise
    be settled without linking the whole project. `read(module)` gives a module's cached
    summary, `read_path(display)` a file's; `given`: (display, path, module) of the files given
    (the others are context)."""
    from .lazy import NeedsWholeProject

    try:
        return _run(state, findings, edits, read, read_path, config, selection, given)
    except NeedsWholeProject:
        return None


def _run(state, findings, edits, read, read_path, config, selection, given) -> Rechecked | None:
    from pathlib import Path

    from . import api
    from .effects.classify import Catalog
    from .frameworks import all_frameworks
    from .lazy import lazy_project
    from .model import Finding
    from .observed import moved_finding, stands_on
    from .project import owners
    from .ruledocs import rules

    by_module = {new.module: new for _, new, _ in edits.values()}
    # The frameworks say which decorators they read; the scans run only after an edit of what they read.
    project = lazy_project(state.modules, lambda m: by_module.get(m) or read(m), state.rewrites,
                           Catalog(config.effects, config.guards), all_frameworks(config), config.entry_points)
    edits = dict(edits)
    for path, (old, new, looked_up) in edits.items():
        edit = body_edit(state, old, new, looked_up, project)
        if edit is not None and edit.indexed and not _index_unread(project, state, new, edit.indexed):
            edit = None  # a call Airflow's index was asked for
        if edit is None and state.sources:
            edit = body_edit(state, old, new, looked_up, project, rescan=True)
        if edit is None or (edit.imports_changed and not _same_rewrites(project, state, new)):
            return None
        edits[path] = (new, edit)
    rescan = any(edit.rescan for _, edit in edits.values())
    looking, sites = set(), set()
    if rescan:
        lookers = _lookers(state, edits, project)
        if lookers is None:
            return None
        looking, sites = lookers
    found = _found_again(state, project, edits, sites) if rescan else None
    if rescan and found is None:
        return None
    if found is None:
        for path, (_, edit) in edits.items():
            state = state.renamed(path, edit.moved)
            if state is None:
                return None
        project.__dict__.update(jobs=state.jobs, retry_wrappers=state.retry_wrappers, job_names=state.job_names,
                                signal_receivers=state.signal_receivers)
        old_roots, sites_changed = project.job_roots(), set()
    else:
        old_roots, sites_changed = found
    changed = set().union(*(edit.changed for _, edit in edits.values()))
    # A function that looked a changed name up may resolve its calls otherwise now: its edges are asked anew.
    edges = {q: e for q, e in state.edges.items() if q not in changed and q not in looking}
    project.call_edges = edges  # `Project.cycles` reads them all
    roots = project.job_roots()
    before = owners(old_roots, state.edges.get)

    def callees_of(q: str):
        if q not in edges:
            edges[q] = project.callees_of(q)
        return edges[q]

    after = owners(roots, callees_of)
    project.__dict__["job_context"] = after
    units = _ancestors({q for q in changed | looking if q in after}, after, edges)
    units.update(q for q, root in after.items() if before.get(q) != root or root in sites_changed)
    if sites_changed:  # and the jobs that share a docstring with one (JC501 reports it once)
        docs = {site.doc_owner for q in sites_changed for site in (state.jobs.get(q), project.jobs.get(q)) if site}
        units.update(q for q, site in project.jobs.items() if site.doc_owner in docs)

    given_paths = {display for display, _, _ in given}
    absolute = {display: Path(path) for display, path, _ in given} if config.per_file_ignores else {}
    fresh = api.check_project(project, config, selection, rules(), units)
    fresh = api.kept_findings(fresh, project, config, _ByPath(read_path), absolute, None, given_paths,
                              {module for _, _, module in given})

    kept = []
    for f in findings:
        if f.function is not None and (f.function in units or f.function not in after):
            continue  # checked again, or no longer reached
        if f.path in edits or f.cites:  # else nothing of it is in an edited file
            for path, (_, edit) in edits.items():
                if not stands_on(f, path, edit.moved):
                    return None
                f = moved_finding(f, path, edit.moved)
        kept.append(f)
    out = sorted(set(kept + fresh), key=Finding.sort_key)
    observation = project.observation()
    attrs_read = {q: set(v) for q, v in state.attrs_read.items()}
    for q, names in project.attrs_read.items():  # what the checks run again read (they may read more)
        attrs_read.setdefault(q, set()).update(names)
    state = replace(state, edges=edges, attrs_read=attrs_read,
                    enqueues_asked=state.enqueues_asked | project.enqueues_asked,
                    lookers=_lookers_after(state, project), stale=state.stale | {new.module for new, _ in edits.values()})
    if found is not None:
        state = _rescanned_state(state, project)
    return Rechecked(out, state, observation.looked_up, len(units), project.__dict__["_loader"].loaded,
                     found is not None)


def _found_again(state: State, project, edits: dict, sites: set[str]) -> tuple[list[str], set[str]] | None:
    """Run every scan again on the lazily loaded project, the whole-project loops replayed from
    the record (`sources`) with the edited modules' items tested anew. Returns the roots the
    recorded run found, in its order, and the functions whose job or retry wrapper changed
    (found, lost, or found otherwise); None when that cannot be settled here (what a job is
    asked for by an enqueue changed, or a signal's receivers). `sites`: the modules whose
    items are tested again besides the edited and stale ones (their tests looked a changed name up)."""
    import marshal

    from .sources import Replay

    loader = project.__dict__["_loader"]
    edited = {new.module for new, _ in edits.values()} | {m for m in state.stale | sites if m in loader.rank}
    sources = marshal.loads(state.sources) if isinstance(state.sources, bytes) else state.sources
    project.__dict__["_replay"] = Replay(sources, edited, loader.rank, project.modules.__getitem__, project)
    project.finish_scans()
    if project.signal_receivers != state.signal_receivers:
        return None  # a send's callees (the call edges) would change
    if (state.jobs.keys() ^ project.jobs.keys()) & state.enqueues_asked:
        return None  # `Project.effect` asked whether it is a job
    old_jobs, old_wrappers, lost = dict(state.jobs), dict(state.retry_wrappers), set()
    for path, (_, edit) in edits.items():
        for q, site in old_jobs.items():
            try:
                old_jobs[q] = _renamed_site(site, path, edit.moved)
            except KeyError:  # it stood on a line the edit changed
                lost.add(q)
        for q, policy in old_wrappers.items():
            try:
                old_wrappers[q] = _renamed_policy(policy, path, edit.moved)
            except KeyError:
                lost.add(q)
    changed = lost | {q for q in old_jobs.keys() | project.jobs.keys() if old_jobs.get(q) != project.jobs.get(q)}
    changed |= {q for q in old_wrappers.keys() | project.retry_wrappers.keys()
                if old_wrappers.get(q) != project.retry_wrappers.get(q)}
    return list(state.jobs) + [q for q in state.retry_wrappers if q not in state.jobs], changed


def _lookers(state: State, edits: dict, project) -> tuple[set[str], set[str]] | None:
    """The functions and the modules' sites that looked up a name the edits changed
    (`BodyEdit.looked`), or used a resolved name that resolves otherwise now
    (`lookers.looked_by`): those functions are checked again (and whatever reaches them), those
    modules' items scanned again. None when linking again settles it: linking probed such a
    name (its rewrites may change), or the checks looked it up for no function."""
    from .lookers import combined, looked_by

    looked = set().union(*(edit.looked for _, edit in edits.values()))
    if not looked:
        return set(), set()
    if looked & state.linker_asked:
        return None
    functions, modules, outside = looked_by(combined(state.lookers), looked, project.recomputed)
    return None if outside else (functions, modules)


def _lookers_after(state: State, project) -> list:
    """Who looked what up, what the re-check's project looked up added as a layer (few
    layers: `_LAYERS` are combined into one)."""
    from .lookers import combined

    new = project.lookers_data()
    if new is None:
        return state.lookers
    layers = [*state.lookers, new]
    return layers if len(layers) <= _LAYERS else [combined(layers)]


_LAYERS = 8


def _rescanned_state(state: State, project) -> State:
    """The state after the scans ran again: what they found now, and what they read — the
    recorded reads kept, as the unedited modules' items were not read again."""
    readers = {a: set(keys) for a, keys in state.call_readers.items()}
    for a, keys in project.call_readers.items():
        readers.setdefault(a, set()).update(keys)
    bodies = {q: set(v) for q, v in state.bodies_read.items()}
    for q, views in project.bodies_read.items():
        bodies.setdefault(q, set()).update(views)
    return replace(state, jobs=project.jobs, retry_wrappers=project.retry_wrappers, job_names=project.job_names,
                   sources=dict(project.__dict__["_replay"].now), stale=set(), bodies_read=bodies,
                   whole_attrs=state.whole_attrs | project.whole_attrs,
                   call_readers={a: sorted(keys) for a, keys in readers.items()},
                   all_calls=state.all_calls or project.scans_all_calls,
                   index_reads=state.index_reads | project.index_reads,
                   scans_asked=state.scans_asked | project.scans_asked)


def _same_rewrites(project, state: State, new: ModuleSummary) -> bool:
    """Would linking rewrite the edited module's imports as it did (`relink`)? It looks into
    other modules, as the full run had them when it came to this one: one linked later that
    linking rewrites would be read as it was before, which a lazily loaded project cannot give."""
    from .lazy import NeedsWholeProject
    from .relink import rewrites_for

    loader = project.__dict__["_loader"]
    rank = loader.rank[new.module]

    class Probe:
        def __contains__(self, name) -> bool:
            return name in loader.rank

        def get(self, name, default=None):
            if name in state.rewrites and loader.rank[name] > rank:
                raise NeedsWholeProject(name)
            return loader.modules.get(name, default)

    return rewrites_for(new, Probe(), project.__dict__["_fw_tops"], None) == state.rewrites.get(new.module, {})


def _index_unread(project, state: State, new: ModuleSummary, names: frozenset) -> bool:
    """Was Airflow's call index asked for none of the callees of these calls (the callee, or
    what `.override(...)`, `.partial(...)` and the like are called on)? It is asked for tasks,
    operator classes and the functions on the way to a DAG: a call of anything else, added or
    dropped, changes nothing it finds."""
    from .frameworks.resolve import call_name

    for name in names:
        for callee in (name, name.rpartition(".")[0]):
            if callee and call_name(project, new, callee) in state.index_reads:
                return False
    return True


def _ancestors(targets: set[str], reached: dict[str, str], edges: dict) -> set[str]:
    """Every reached function from which a call path leads to one of `targets` (them included)."""
    if not targets:
        return set()
    callers: dict[str, list[str]] = {}
    for q in reached:
        for callee in edges.get(q) or ():
            callers.setdefault(callee, []).append(q)
    out = set(targets)
    stack = list(targets)
    while stack:
        for caller in callers.get(stack.pop(), ()):
            if caller not in out:
                out.add(caller)
                stack.append(caller)
    return out


class _ByPath(dict):
    """Display path -> summary, read when asked (for the suppressions of files with findings)."""

    def __init__(self, read_path) -> None:
        super().__init__()
        self.read_path = read_path

    def get(self, path, default=None):
        if not dict.__contains__(self, path):
            dict.__setitem__(self, path, self.read_path(path))
        found = dict.__getitem__(self, path)
        return default if found is None else found

    def __getitem__(self, path):
        found = self.get(path)
        if found is None:
            raise KeyError(path)
        return found

    def __contains__(self, path) -> bool:
        return self.get(path) is not None
