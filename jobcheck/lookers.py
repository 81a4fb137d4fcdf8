"""Who looked each name up: a linked run's lookups, attributed to the parts of its result they decide.

A re-check after an edit that changes a name something looked up (a function renamed, a class
gone, an assignment changed: `recheck.BodyEdit.looked`) must redo whatever looked it up. The
record of a run says which names were looked up in each module (`observed`); this says by
what, so that only those are redone, not every module that imports the edited one.

Every recorded lookup (`RecordingDict`, `Project.note_read`, `Project.note_attr`) goes to the
innermost open *frame*. Frames of their own are:

- a **function's**: the names looked up while interpreting that function's events — its checks
  (`CheckContext.wanted` opens it), its effects (`Project.call_effects`), its callees
  (`Project.callees_of`), what its returns derive from (JC101's walk). It does not take in the
  frames of the functions it calls: a finding of `f` that a changed name can change is found by
  walking call edges up from the functions that looked it up (`recheck._ancestors`).
- a **module's sites**: what the scans' whole-project loops asked while testing that module's
  items (`sources.module_site`); a replay tests those modules' items again.
- **outside**: what the checks look up for no function (before their first one); a changed
  name found there links the project again.

A result remembered by name is used by many frames while its lookups ran in one. A resolved
name (`Project.canonical`) runs in a *memo* frame (`push`/`pop`): a frame of its own notes the
memo (`used`), and a re-check asks whether the memo's result changed, not only whether a name
it looked up did — a renamed function leaves nearly every name resolving as it did, and so the
frames that only resolved names through it keep their results. Inside a memo, another memo's
lookups are taken in whole. Other remembered answers (`canonical_in`) run in a frame that
passes what it finds below and keeps it with the answer (`open`/`close`), passed again to
whoever uses the answer later (`merge`).

Lookups with no frame open — the scans' own work outside their sites — are not attributed: a
re-check that changes a looked-up name runs every scan again.
"""

from __future__ import annotations

from sys import intern

# A memo, as a frame notes it: this character, then the name resolved. Looked-up names never
# start so.
CANONICAL = "\0"


class Lookers:
    __slots__ = ("frames", "functions", "modules", "outside", "_memos", "_saved")

    def __init__(self) -> None:
        self.frames: list[set] = []  # innermost last; shared with the recording dicts
        self.functions: dict[str, set[str]] = {}  # qualname -> what its own frame looked up
        self.modules: dict[str, set[str]] = {}  # module -> what its sites' tests looked up
        self.outside: set[str] = set()
        self._memos = 0  # memo frames open above the innermost frame of another kind
        self._saved: list[int] = []

    def note(self, key: str) -> None:
        if self.frames:
            self.frames[-1].add(intern(key))

    # A memo's frame: `push`, compute, `pop` gives its lookups, kept with the result; then
    # `used` says the result was used, now or later.
    def push(self) -> None:
        self.frames.append(set())
        self._memos += 1

    def pop(self) -> frozenset:
        self._memos -= 1
        return frozenset(self.frames.pop())

    def used(self, memo: str, keys) -> None:
        """A remembered result was used (`memo`: which; `keys`: what computing it looked up):
        a memo computing with it looks those up too, any other frame notes the memo."""
        if keys and self.frames:
            if self._memos:
                self.frames[-1].update(keys)
            else:
                self.frames[-1].add(intern(memo))

    # A frame that passes what it finds to the frame below and keeps it for the answer it
    # computes: `open`, compute, `close` gives it; `merge` passes it again to a later user.
    def open(self) -> None:
        self._enter(set())

    def close(self) -> frozenset:
        got = frozenset(self.frames[-1])
        self.leave()
        self.merge(got)
        return got

    def merge(self, keys) -> None:
        if keys and self.frames:
            self.frames[-1].update(keys)

    # Frames of their own, not passed below: `enter_...`, work, `leave()`.
    def enter_function(self, qualname: str) -> None:
        found = self.functions.get(qualname)
        if found is None:
            found = self.functions[qualname] = set()
        self._enter(found)

    def enter_module(self, module: str) -> None:
        found = self.modules.get(module)
        if found is None:
            found = self.modules[module] = set()
        self._enter(found)

    def _enter(self, frame: set) -> None:
        self.frames.append(frame)
        self._saved.append(self._memos)
        self._memos = 0

    def leave(self) -> None:
        self.frames.pop()
        self._memos = self._saved.pop()

    def attribute(self, qualname: str | None, outside: bool = True) -> None:
        """From here on the checks work for function `qualname` (None: for none, in `outside`
        if `outside`, else nowhere). Only between whole steps: no frame may be open above."""
        assert len(self.frames) <= 1 and not self._memos, "attributed inside a frame"
        self.frames.clear()
        self._saved.clear()
        if qualname is not None:
            self.enter_function(qualname)
        elif outside:
            self._enter(self.outside)

    def data(self, memo_of) -> tuple | None:
        """(functions, modules, outside, memos) as plain data, for a run's record (None if
        nothing was looked up): each frame's names and memos, and each memo they note (and
        those noted by these), `memo_of(memo)` -> (its result, its lookups). Frames hold their
        names interned (`note`, the recording dicts), so that the record holds each once
        (`marshal` writes a repeated object as a reference)."""
        if not (self.functions or self.modules or self.outside):
            return None
        functions = {q: k for q, k in self.functions.items() if k}
        modules = {m: k for m, k in self.modules.items() if k}
        memos: dict[str, tuple] = {}
        todo = [k for keys in (*functions.values(), *modules.values(), self.outside) for k in keys if k[0] == CANONICAL]
        while todo:
            memo = todo.pop()
            if memo in memos:
                continue
            result, keys = memo_of(memo)
            memos[memo] = (intern(result) if type(result) is str else result, keys)
            todo.extend(k for k in keys if k[0] == CANONICAL)
        return functions, modules, self.outside, memos


def combined(layers: list) -> tuple:
    """One `Lookers.data` of several, oldest first (each may still be marshalled): a function or
    module looked up what any layer says (a re-check redoes part of a function's frame, not all
    of it, so what it finds is added to what was found before); a memo is as the newest layer
    that computed it has it."""
    import marshal

    functions: dict[str, set] = {}
    modules: dict[str, set] = {}
    outside: set[str] = set()
    memos: dict = {}
    for layer in layers:
        f, m, o, memo = marshal.loads(layer) if isinstance(layer, bytes) else layer
        for table, found in ((functions, f), (modules, m)):
            for name, keys in found.items():
                if name in table:
                    table[name].update(keys)
                else:
                    table[name] = set(keys)
        outside.update(o)
        memos.update(memo)
    return functions, modules, outside, memos


def looked_by(data: tuple, changed: set[str], recompute) -> tuple[set[str], set[str], bool]:
    """The functions and the modules whose frames looked up one of `changed`, or used a memo
    whose result changed with them (`recompute(memo)`: its result now), and whether something
    outside them did."""
    functions, modules, outside, memos = data
    hit, same = set(changed), set()
    while True:  # a memo that noted another changes only if that one did
        asked = [m for m, (_, keys) in memos.items() if m not in hit and m not in same and not hit.isdisjoint(keys)]
        if not asked:
            break
        for memo in asked:
            (hit if recompute(memo) != memos[memo][0] else same).add(memo)
    return ({q for q, keys in functions.items() if not hit.isdisjoint(keys)},
            {m for m, keys in modules.items() if not hit.isdisjoint(keys)}, not hit.isdisjoint(outside))
