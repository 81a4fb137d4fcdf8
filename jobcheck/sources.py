"""What the scans iterate over the whole project, recorded item by item, so that a re-check can
run every scan again after an edit of what they read without reading every module (`recheck`).

A scan that goes over every class, every module, every decorator or every call of a name asks
for the items through a *site* — a name for the loop and the test that picks its items — and
only ever sees the items that pass. A linked project tests every item and records, per site,
the items that passed, in the project's order, each with its module. A project re-running the
scans after an edit (`Replay`) takes the recorded items of the modules that did not change and
tests the edited modules' items again, in their place.

That is sound because a test reads only its item and names (resolution, `class_bases`, the
attributes `Project.note_attr` records): an edit that `recheck` lets through changes no name
table entry, class, or function list anything looked up, so an unedited module's items test
as they did. A site the recorded run never asked for cannot be replayed (`NeedsWholeProject`).
A module edited since the scans last ran, whose recorded items may be numbered or placed
otherwise now (`recheck.State.stale`), is tested again like an edited one.
"""

from __future__ import annotations

from bisect import bisect_right

from .summary import ClassSummary, ModuleSummary

Entry = tuple  # (module name, ...the item)
Sources = dict[str, list[Entry]]  # site -> the items that passed, in the project's order


def recording(project) -> Sources | None:
    """Where a linked project records what passes (None if it does not record: `--no-cache`)."""
    return project.__dict__.get("_sources")


def replaying(project) -> Replay | None:
    return project.__dict__.get("_replay")


def module_site(project, module: str, test, *args):
    """`test(*args)`, what it looks up attributed to `module`'s sites (`lookers`): a replay
    tests the module's items again when one of those names changed."""
    lookers = project.lookers
    if lookers is None:
        return test(*args)
    lookers.enter_module(module)
    try:
        return test(*args)
    finally:
        lookers.leave()


def scan_classes(project, site: str, wanted) -> list[ClassSummary]:
    """The project's classes for which `wanted(cls)` holds, in the project's order."""
    replay = replaying(project)
    if replay is not None:
        entries = replay.entries(site, lambda mod: [(mod.module, c.qualname) for c in mod.classes.values() if wanted(c)])
        return [project.listed_class(q) for _, q in entries]
    if project.lookers is None:
        found = [c for c in project.classes.values() if wanted(c)]
    else:
        found = [c for c in project.classes.values() if module_site(project, project.module_of_class(c).module, wanted, c)]
    recorded = recording(project)
    if recorded is not None:
        recorded[site] = [(project.module_of_class(c).module, c.qualname) for c in found]
    return found


def scan_modules(project, site: str, wanted) -> list[ModuleSummary]:
    """The project's modules for which `wanted(module)` holds, in order."""
    replay = replaying(project)
    if replay is not None:
        entries = replay.entries(site, lambda mod: [(mod.module,)] if wanted(mod) else [])
        return [project.modules[m] for m, in entries]
    found = [m for m in project.modules.values() if module_site(project, m.module, wanted, m)]
    recorded = recording(project)
    if recorded is not None:
        recorded[site] = [(m.module,) for m in found]
    return found


def any_module(project, site: str, wanted) -> bool:
    """Does `wanted(module)` hold for some module? (Read from the record without loading any.)"""
    replay = replaying(project)
    if replay is not None:
        return bool(replay.entries(site, lambda mod: [(mod.module,)] if wanted(mod) else []))
    return bool(scan_modules(project, site, wanted))


def per_module(project, site: str, contribute, holds=None) -> list[tuple[str, object]]:
    """(module name, `contribute(module)`) for every module that contributes something (plain
    data: tuples, lists, strings, numbers), in order. A replay reads the unedited modules'
    contributions from the record, those for which `holds(data, edited modules)` says so if
    given (a contribution that read more than its module and names says what it read)."""
    replay = replaying(project)
    if replay is not None:
        return replay.entries(site, lambda mod: _contribution(mod, contribute), holds)
    found = [entry for mod in project.modules.values() for entry in module_site(project, mod.module, _contribution, mod, contribute)]
    recorded = recording(project)
    if recorded is not None:
        recorded[site] = found
    return found


def _contribution(mod: ModuleSummary, contribute) -> list[Entry]:
    data = contribute(mod)
    return [(mod.module, data)] if data else []


class Replay:
    """The recorded items of the unedited modules, and the edited modules' items tested again."""

    def __init__(self, recorded: Sources, edited: set[str], rank: dict[str, int], module, project=None) -> None:
        """`edited`: the modules whose items are tested again; `module(name)`: a module's
        summary, as the project has it (linking's rewrites made); `project`: where what the
        tests look up is attributed (`module_site`)."""
        self.project = project
        self.recorded = recorded
        self.edited = edited
        self.rank = rank
        self.module = module
        self.now: Sources = {}  # what this run's sites gave: the record after it

    def entries(self, site: str, fresh, holds=None) -> list[Entry]:
        """The site's items: recorded, with each edited module's `fresh(module)` in its place
        (and each whose recorded item `holds(item, edited modules)` denies)."""
        from .lazy import NeedsWholeProject

        done = self.now.get(site)
        if done is not None:
            return done
        recorded = self.recorded.get(site)
        if recorded is None:
            raise NeedsWholeProject(site)
        again = set(self.edited)
        if holds is not None:
            again.update(e[0] for e in recorded if e[0] not in again and not holds(e[1], self.edited))
        out = [e for e in recorded if e[0] not in again]
        for name in sorted(again, key=self.rank.__getitem__):
            ranks = [self.rank[e[0]] for e in out]
            at = bisect_right(ranks, self.rank[name])
            mod = self.module(name)
            out[at:at] = fresh(mod) if self.project is None else module_site(self.project, name, fresh, mod)
        self.now[site] = out
        return out
