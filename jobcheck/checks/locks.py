"""The locks and leases a function takes, with their expiry and the events they guard (JC301,
JC302, JC303).

Two shapes (`effects.catalog`, `effects.leases`): a lock API (`Redis.lock(name, timeout=...)`,
python-redis-lock's `Lock(conn, name, expire=...)`, django-redis's `cache.lock(name)`, pottery's
`Redlock`, sherlock's `Lock`, jobcheck.runtime's leases), and a set-if-absent write (`set(...,
nx=True)`, `setnx`, Django's `cache.add`) that the same client deletes later in the function:
taken, the work, released. A set-if-absent write that is never deleted is a marker that may be
meant to last (a key saying the work was done), not a lock.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.summary import Event, FunctionSummary
from ..analysis.values import render
from ..effects.catalog import CACHE_ADD_CALLS, LOCK_CALLS, LOCK_RELEASES, SET_IF_ABSENT_EXPIRY, STALE_FILE_LOCKS
from ..effects.classify import PatternSet
from ..effects.leases import LEASE_CALLS
from .context import ProjectView

_LOCKS = [(PatternSet([pattern]), keyword, position, None) for pattern, keyword, position in LOCK_CALLS]
_LEASES = [(PatternSet([pattern]), keyword, position, default) for pattern, keyword, position, default in LEASE_CALLS]
_CACHE_ADD = PatternSet(CACHE_ADD_CALLS)
_STALE_FILE_LOCKS = PatternSet(STALE_FILE_LOCKS)
_EXPIRES = ("expire", "pexpire", "expireat", "pexpireat")
_UNSET = object()


@dataclass(frozen=True)
class Lock:
    """A lock a function takes: where, through what, how it expires, and what releases it."""

    index: int  # the event that takes it
    name: str  # its resolved call name
    expiry: str | None  # how its expiry reads (`timeout=600`, `the cache's default timeout`); None: none
    how: str  # what says so: "no `timeout=`", "`nx=True` with no `ex=`/`px=`"
    keyword: str | None = None  # a lock API's expiry keyword ("": a lock file, with none)
    key: object = None  # the lock's literal key, where written
    release: tuple[str, int, int] | None = None  # (name, line, event index) of the first call that releases it
    end: int | None = None  # the index of the last such call (an early return's release comes first)
    region: int | None = None  # the `with` block it is entered by

    @property
    def is_key(self) -> bool:
        """A set-if-absent lock (a key the client sets and deletes), not a lock object."""
        return self.keyword is None

    @property
    def is_file(self) -> bool:
        """A lock file that stays on disk when its holder dies: no expiry can be given."""
        return self.keyword == ""

    def guards(self, fn: FunctionSummary, index: int) -> bool:
        """Does the event at `index` run while the lock is held?"""
        if index <= self.index:
            return False
        if self.region is not None:
            return self.region in fn.events[index].regions
        return self.end is None or index < self.end


def locks_in(project: ProjectView, fn: FunctionSummary) -> list[Lock]:
    """Every lock `fn` takes, in order."""
    out = []
    for i, ev in enumerate(fn.events):
        if ev.kind != "call" or "**" in ev.kwargs:
            continue  # (keywords passed on whole may hold the expiry)
        name = project.event_name(ev)
        found = _lock_call(project, fn, i, name, ev) or _set_if_absent(project, fn, i, name, ev)
        if found is not None:
            out.append(found)
    return out


def _lock_call(project: ProjectView, fn: FunctionSummary, index: int, name: str | None, ev: Event) -> Lock | None:
    """A lock API: its expiry as given, or the library's default; a lock file with none to give."""
    if name in _STALE_FILE_LOCKS or _own_stale_file_lock(project, name):
        expiry, how, keyword = None, "a lock file that stays on disk when its holder dies", ""
    else:
        found = next(((keyword, position, default) for patterns, keyword, position, default in (*_LOCKS, *_LEASES)
                      if name in patterns), None)
        if found is None:
            return None
        keyword, position, default = found
        given = _argument(ev, keyword, position)
        if given is not None:
            expiry = f"{keyword}={shown(given)}"
        else:
            expiry = f"{keyword}={default} by default" if default else None
        how = f"no `{keyword}=`"
    releases = _released(fn, index, f"{ev.name}()", ("release",))
    return Lock(index, name, expiry, how, keyword=keyword, key=_literal(ev.args[0] if ev.args else None),
                region=_entered_by(fn, ev), release=releases[0] if releases else None,
                end=releases[-1][2] if releases else None)


# How a lock class of the application's own (a vendored pylockfile, a lock file of its own) takes
# its lock when it leaves a file behind: it creates one only one process can (a hard link, a
# folder, a symbolic link, `O_EXCL`), and none of its methods asks whether the holder still lives.
_EXCLUSIVE_CREATES = ("os.link", "os.mkdir", "os.symlink")
_HOLDER_CHECKS = ("os.kill", "psutil.", "fcntl.")


def _own_stale_file_lock(project: ProjectView, name: str | None) -> bool:
    """Is `name` a lock class of the project whose `acquire` (its own or a base's, with the
    functions it calls) leaves a lock file that stays on disk when its holder dies?"""
    family, seen = [], set()
    cls = project.classes.get((project.canonical(name) or name or "").removesuffix("()"))
    while cls is not None and cls.qualname not in seen:
        seen.add(cls.qualname)
        family.append(cls)
        base = next((project.canonical(b) for b in cls.bases if b), None)
        cls = project.classes.get((base or "").removesuffix("()"))
    methods = [f for c in family for m in c.methods if (f := project.functions.get(f"{c.qualname}.{m}")) is not None]
    acquire = next((f for f in methods if f.name == "acquire"), None)
    if acquire is None:
        return False
    # `acquire` and the project's functions it calls (`self.attempt_acquire(...)`)
    bodies = [acquire, *(f for ev in acquire.events if ev.kind == "call"
                         if (f := project.function_for(project.event_name(ev))) is not None and f is not acquire)]
    def calls(functions):
        return [(project.event_name(ev) or "", ev) for f in functions for ev in f.events if ev.kind == "call"]

    creates = any(n in _EXCLUSIVE_CREATES or n == "os.open" and "O_EXCL" in repr(ev.args) for n, ev in calls(bodies))
    return creates and not any(n.startswith(_HOLDER_CHECKS) for n, _ in calls(methods))


def _set_if_absent(project: ProjectView, fn: FunctionSummary, index: int, name: str | None,
                   ev: Event) -> Lock | None:
    """A set-if-absent write that the same client deletes later: a lock."""
    if not name:
        return None
    if ev.attr == "set" and _literal(ev.kwargs.get("nx")) is True:
        given = _argument(ev, "ex", 2) or next(
            (ev.kwargs[k] for k in SET_IF_ABSENT_EXPIRY if _argument(ev, k, None) is not None), None)
        expiry = None if given is None else f"ex={shown(given)}"
        how = "`nx=True` with no `ex=`/`px=`"
    elif ev.attr == "setnx":
        expire = later_call(project, fn, index, name, _EXPIRES)
        expiry = None if expire is None else f"`{expire[0].rpartition('.')[2]}` at line {expire[1]}"
        how = "`setnx`, which sets no expiry"
    elif name in _CACHE_ADD:
        given = _argument(ev, "timeout", 2)
        if "timeout" not in ev.kwargs and len(ev.args) < 3:
            expiry = "the cache's default timeout"
        else:
            expiry = None if given is None else f"timeout={shown(given)}"
        how = "`timeout=None`"
    else:
        return None
    release = later_call(project, fn, index, name, LOCK_RELEASES)
    if release is None:
        return None
    key = _literal(ev.args[0] if ev.args else None)
    last = release
    while (after := later_call(project, fn, last[2], name, LOCK_RELEASES, key)) is not None:
        last = after
    return Lock(index, name, expiry, how, key=key, release=release, end=last[2])


def later_call(project: ProjectView, fn: FunctionSummary, index: int, name: str, attrs: tuple[str, ...],
               key=_UNSET):
    """(name, line, index) of a call after `index` through the same client (`name`'s receiver) of
    one of `attrs`, on the same key as far as can be told (two different literal keys are not the
    same); the key is the first argument of the call at `index` unless given."""
    if key is _UNSET:
        key = _literal(fn.events[index].args[0] if fn.events[index].args else None)
    for j in range(index + 1, len(fn.events)):
        ev = fn.events[j]
        if ev.kind == "call" and ev.attr in attrs and on_key(project, ev, name, key):
            return project.event_name(ev) or "", ev.line, j
    return None


def on_key(project: ProjectView, ev: Event, name: str, key) -> bool:
    """Is this call made through the client that `name` calls, on the key `key` (None: unknown)?"""
    other = project.event_name(ev) or ""
    other_key = _literal(ev.args[0] if ev.args else None)
    return other.rpartition(".")[0] == name.rpartition(".")[0] and (key is None or other_key is None or key == other_key)


def _released(fn: FunctionSummary, index: int, instance: str, attrs: tuple[str, ...]) -> list:
    """(name, line, index) of each later call of one of `attrs` on the lock object `instance`."""
    return [(ev.name, ev.line, j) for j, ev in enumerate(fn.events) if j > index and ev.kind == "call"
            and ev.attr in attrs and (ev.name or "").rpartition(".")[0].endswith(instance)]


def _entered_by(fn: FunctionSummary, ev: Event) -> int | None:
    """The `with` block this call is the context manager of."""
    for region in fn.regions:
        if (region.line, region.col) == (ev.line, ev.col):
            return region.id
    return None


def shown(value: list) -> str:
    """A setting as a message shows it: a constant by its own name (`LOCK_SECONDS`)."""
    if value[0] in ("name", "ref") and value[1]:
        return value[1].rpartition(".")[2]
    return render(value)


def _argument(ev: Event, keyword: str, position: int | None) -> list | None:
    """The argument given (by keyword, or at `position`), unless it is None."""
    if keyword in ev.kwargs:
        value = ev.kwargs[keyword]
    elif position is not None and len(ev.args) > position:
        value = ev.args[position]
    else:
        return None
    return None if value and value[0] == "lit" and value[1] is None else value


def _literal(value: list | None, otherwise=None):
    """A literal Value's value; `otherwise` for anything else (a name, a call: some value)."""
    return value[1] if value and value[0] == "lit" else otherwise
