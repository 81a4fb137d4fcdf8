"""The `.jobcheck_cache` folder: per-file summaries keyed by content, and each run's findings.

Layout (like `.ruff_cache`):

    .jobcheck_cache/
      CACHEDIR.TAG, .gitignore           backup tools and git leave the folder alone
      0.1.0-<build>/                     one folder per summariser build (version + its source)
        s-<key>                          a file's summary: key = hash(content, module name, package?)
        r-<invocation>                   the findings of the last run of one invocation

A summary depends only on the file's bytes and its module name (never on configuration: that
is the "relevant configuration" of its key, none), so its key is the content hash plus the
module name; the folder carries jobcheck's version and a hash of the summarising modules'
source, so an upgrade (or an edit of a development checkout) starts afresh. A run record holds
the findings of one invocation (paths, options, configuration) together with what they were
computed from — every file's path, module and content hash, and jobcheck's whole build — so a
run in which nothing changed skips the project phase, and any change anywhere recomputes it
from the summaries.

Every entry carries its key and a checksum of its payload: a truncated, corrupt or foreign entry
is ignored (and rewritten by the run), never trusted. Writes go to a temporary file in the same
folder and are renamed into place, so concurrent runs see a whole entry or none. An unwritable
cache never fails a run.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import re
import sys
import time
import zlib
from dataclasses import fields
from pathlib import Path

from . import __version__
from .serialize import FormatError, head_of, unpack, unpack_head
from .summary import ModuleSummary

ENV_VAR = "JOBCHECK_CACHE_DIR"
FOLDER_NAME = ".jobcheck_cache"
_MAGIC = b"JCC\x01"
_KEY_SIZE = 16
_HEADER = len(_MAGIC) + 1 + _KEY_SIZE + 4  # magic, kind, key, CRC-32 of the payload
SUMMARY, RUN = b"S", b"R"
_DAY = 24 * 3600
_UNUSED_FOR = 7 * _DAY  # entries, records and other builds' folders unused this long are removed
_OURS = ("s-", "r-", ".tmp-", ".pruned")
_BUILD_FOLDER = re.compile(r"[0-9][0-9A-Za-z.+!_]*-[0-9a-f]{12}")

_CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by jobcheck.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


def digest(data: bytes) -> bytes:
    """A content hash for keys (SHA-1 runs at memory speed here; nothing adversarial is at stake:
    whoever can plant a colliding file in a project can change its code anyway)."""
    return hashlib.sha1(data, usedforsecurity=False).digest()[:_KEY_SIZE]


def _crc(payload: bytes | list[bytes]) -> bytes:
    crc = 0
    for part in [payload] if isinstance(payload, bytes) else payload:
        crc = zlib.crc32(part, crc)
    return crc.to_bytes(4, "big")


def default_dir(config_path: Path | None) -> Path:
    """$JOBCHECK_CACHE_DIR, else `.jobcheck_cache` beside the configuration file, else in the
    current folder (the project root when jobcheck runs from there, as pre-commit and CI do)."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    return (config_path.parent if config_path else Path.cwd()) / FOLDER_NAME


# The modules a summary depends on: their source is part of every summary key (a test checks
# that they import nothing else from jobcheck).
SUMMARY_MODULES = ("engine", "summary", "keys", "suppress", "serialize")
_PACKAGE = Path(__file__).resolve().parent
_fingerprints: dict[str, str] = {}


def summary_fingerprint() -> str:
    """The build of the summariser: jobcheck's version, the Python running it, and the source of
    the summarising modules (a development checkout changes without a new version)."""
    if "summary" not in _fingerprints:
        h = hashlib.blake2b(digest_size=6)
        h.update(repr((__version__, sys.implementation.cache_tag, sys.version_info[:3], marshal.version)).encode())
        for name in SUMMARY_MODULES:
            h.update((_PACKAGE / f"{name}.py").read_bytes())
        _fingerprints["summary"] = f"{__version__}-{h.hexdigest()}"
    return _fingerprints["summary"]


def code_fingerprint() -> str:
    """The build of all of jobcheck, for run records: the size and modification time of every
    file of the package (frameworks, checks and rule documents all shape the findings)."""
    if "code" not in _fingerprints:
        h = hashlib.blake2b(digest_size=_KEY_SIZE)
        h.update(summary_fingerprint().encode())
        for folder, dirs, names in os.walk(_PACKAGE, followlinks=True):  # rules/ may be a link
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(names):
                if name.endswith((".py", ".md")):
                    st = os.stat(os.path.join(folder, name))
                    h.update(f"{os.path.relpath(os.path.join(folder, name), _PACKAGE)}:{st.st_size}:{st.st_mtime_ns};".encode())
        _fingerprints["code"] = h.hexdigest()
    return _fingerprints["code"]


class Cache:
    """One cache folder, opened for this build of jobcheck."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.folder = self.root / summary_fingerprint()
        self.salt = self.folder.name.encode()
        self._ready: bool | None = None

    # ---- keys --------------------------------------------------------------------------------

    def summary_key(self, content: bytes, module: str, is_package: bool) -> bytes:
        """The key of a summary: the content hash, the module name it was summarised under, and
        this build (an entry copied from another build's folder does not match)."""
        return digest(b"\0".join((self.salt, content, module.encode(), b"P" if is_package else b"M")))

    def summary_path(self, key: bytes) -> Path:
        return self.folder / f"s-{key.hex()}"

    def run_path(self, invocation: bytes) -> Path:
        return self.folder / f"r-{invocation.hex()}"

    # ---- summaries ---------------------------------------------------------------------------

    def load_packed(self, key: bytes) -> bytes | None:
        """A cached summary, packed (`serialize.unpack` reads it), if whole and matching."""
        return read_entry(self.summary_path(key), key, SUMMARY)

    def load_summary(self, key: bytes, display: str) -> ModuleSummary | None:
        blob = self.load_packed(key)
        if blob is None:
            return None
        try:
            summary = unpack(blob)
        except FormatError:
            return None
        summary.path = display  # the key leaves out how the file was named on the command line
        return summary

    def summary_entry(self, key: bytes) -> str | None:
        """Where a new summary goes (None if the cache cannot be written)."""
        return str(self.summary_path(key)) if self.prepare() else None

    # ---- run records -------------------------------------------------------------------------

    def load_run(self, invocation: bytes) -> RunRecord | None:
        """The record of this invocation's last run, if whole and made by this build."""
        payload = read_entry(self.run_path(invocation), invocation, RUN)
        if payload is None:
            return None
        sections = _sections(payload, 4)
        if sections is None:
            return None
        try:
            build, stamps, checked = marshal.loads(sections[0])
        except (ValueError, EOFError, TypeError):
            return None
        if build != code_fingerprint() or (stamps is not None and type(stamps) is not tuple) or type(checked) is not int:
            return None
        return RunRecord(stamps, checked, sections[1:])

    def store_run(self, invocation: bytes, inputs: list | bytes, findings: list, checked: int, stamps: tuple | None = None,
                  observation: tuple | None = None, encoded: tuple | None = None) -> None:
        """Record a run: every file it read, in order (display, path, key, the module-level part
        of its summary, packed), its findings (or `encoded`: them as `findings_to_data` gives),
        how many files it checked, `stamps` (see `take_stamps`) when they are safe to trust, and
        what its project phase looked at (`observed.Observation.to_data`)."""
        encoded = encoded if encoded is not None else findings_to_data(findings)
        if isinstance(inputs, bytes):
            packed_inputs = inputs  # marshalled already (`parallel.Summarizer.close`)
        elif any(key is None or head is None for _, _, key, head in inputs):
            return  # unreadable files: the next run recomputes
        else:
            packed_inputs = marshal.dumps(tuple(inputs))
        if encoded is None or not self.prepare():
            return  # unstorable findings, or no cache folder: the next run recomputes
        sections = [marshal.dumps((code_fingerprint(), stamps, checked)), packed_inputs,
                    marshal.dumps(observation), marshal.dumps(encoded)]
        # Written in parts: the record of a large tree is megabytes, not worth copying whole again.
        parts = [piece for section in sections for piece in (len(section).to_bytes(4, "big"), section)]
        write_entry(self.run_path(invocation), invocation, parts, RUN)

    # ---- the folder --------------------------------------------------------------------------

    def prepare(self) -> bool:
        """Create the folder (tagged, git-ignored) on first write; False if it cannot be written."""
        if self._ready is None:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                for name, text in (("CACHEDIR.TAG", _CACHEDIR_TAG), (".gitignore", "# Automatically created by jobcheck.\n*\n")):
                    target = self.root / name
                    if not target.exists():
                        _atomic_write(target, text.encode())
                self._ready = True
            except OSError:
                self._ready = False
            else:
                try:
                    self._prune()
                except OSError:
                    pass  # tidying is best effort
        return self._ready

    def _prune(self) -> None:
        """At most once a day: drop what has not been used for a week — entries (a hit refreshes
        an entry's time daily), temporary files of interrupted writes, and other builds' folders
        (a run refreshes its own folder's time), so the cache does not grow without bound."""
        now = time.time()
        marker = self.folder / ".pruned"
        try:
            if now - marker.stat().st_mtime < _DAY:
                return
        except FileNotFoundError:
            pass
        marker.touch()
        cutoff = now - _UNUSED_FOR
        for child in self.root.iterdir():
            if child != self.folder and _BUILD_FOLDER.fullmatch(child.name) and child.is_dir():
                _remove_if_unused(child, cutoff, recursive=True)
        with os.scandir(self.folder) as entries:
            names = [(entry.name, entry.path) for entry in entries]
        live = self._summaries_of_live_records(names, cutoff)
        for name, path in names:
            if name.startswith(_OURS) and name != ".pruned" and name not in live:
                _remove_if_unused(Path(path), now - _DAY if name.startswith(".tmp-") else cutoff)

    def _summaries_of_live_records(self, names: list[tuple[str, str]], cutoff: float) -> set[str]:
        """Summary entries that a record used within the week lists: a run reusing a record reads
        no summary (nothing refreshes their times), but its next edit compares with them and its
        next re-link reads them."""
        live: set[str] = set()
        for name, path in names:
            if not name.startswith("r-"):
                continue
            try:
                if os.stat(path).st_mtime < cutoff:
                    continue
                record = self.load_run(bytes.fromhex(name[2:]))
            except (OSError, ValueError):
                continue
            if record is not None:
                live.update(f"s-{key.hex()}" for _, _, key, _ in record.inputs if type(key) is bytes)
        return live

    def touch(self) -> None:
        """Mark this build's folder as in use (other builds prune folders unused for a week)."""
        try:
            os.utime(self.folder)
        except OSError:
            pass


def _remove_if_unused(path: Path, cutoff: float, recursive: bool = False) -> None:
    try:
        if path.stat().st_mtime >= cutoff:
            return
        if recursive:  # only what jobcheck writes; a folder holding anything else stays
            for entry in path.iterdir():
                if entry.name.startswith(_OURS):
                    entry.unlink()
            path.rmdir()
        else:
            path.unlink()
    except OSError:
        pass  # another run is using or removing it


def _sections(payload: bytes, count: int) -> list[memoryview] | None:
    """The `count` length-prefixed sections of a record, or None if it is not made of them."""
    view = memoryview(payload)
    out, at = [], 0
    for _ in range(count):
        size = int.from_bytes(view[at:at + 4], "big")
        if at + 4 + size > len(view):
            return None
        out.append(view[at + 4:at + 4 + size])
        at += 4 + size
    return out if at == len(view) else None


class RunRecord:
    """What a run read, what it looked at, and its findings (each decoded only when used)."""

    def __init__(self, stamps: tuple | None, checked: int, sections: list) -> None:
        self.stamps = stamps
        self.checked = checked
        self._inputs, self._observation, self._findings = sections

    def _load(self, section):
        try:
            return marshal.loads(section)
        except (ValueError, EOFError, TypeError):
            return None

    @property
    def inputs(self) -> tuple:
        inputs = self._load(self._inputs)
        return inputs if type(inputs) is tuple else ()

    def observation(self):
        from .observed import Observation

        data = self._load(self._observation)
        return None if data is None else Observation.from_data(data)

    def encoded_findings(self):
        return self._load(self._findings)

    def findings(self, encoded=None) -> list | None:
        """The findings; `encoded` is `encoded_findings()` when the caller has it already."""
        try:
            names, rows = encoded if encoded is not None else self.encoded_findings()
            return findings_from_data(names, rows)
        except (FormatError, ValueError, EOFError, TypeError, KeyError):
            return None


# ---- stamps ----------------------------------------------------------------------------------
# A run record may also keep the modification time and size of every file the run read and, for
# every folder it listed (finding files, resolving imports), its modification time and a digest of
# its entries. When all are unchanged, nothing the run read can differ — a file added, removed or
# renamed changes its folder's entries — and its findings are reused without reading a file, as
# ruff and mypy do. A folder whose time changed but whose entries did not (an editor that saves
# through a temporary file, a `git checkout` that rewrites a file) still holds. Any other
# difference falls back to comparing content hashes. Stamps taken within RACY_NS of the run's start
# are not trusted (a file written twice within the clock's resolution keeps its time, as git's
# "racy clean" problem), so such a record checks hashes next time and then records fresh stamps.

RACY_NS = 2_000_000_000


def take_stamps(files: list[str], folders, started_ns: int, previous: tuple | None = None) -> tuple:
    """((path, mtime_ns, size) for files, (folder, mtime_ns, entries digest) for folders,
    complete, folders_complete). A file or folder missing, or changed too close to the run's start
    to be told apart from a later change, is left out, and the stamps are then not complete: they
    cannot vouch for the whole run (`stamps_hold`), only for what they list (which a run then need
    not read). With every folder's stamp, they still vouch for which files a run finds and reads
    (`_reuse_by_inputs`). `previous` stamps lend their digests to folders whose time is the same."""
    out_files: list = []
    out_folders: list = []
    complete = {True: True, False: True}
    known = {folder[:2]: folder[2] for folder in previous[1]} if previous and len(previous) == 4 else {}
    for paths, out, is_file in ((files, out_files, True), (sorted(folders), out_folders, False)):
        for path in paths:
            try:
                st = os.stat(path)
                if st.st_mtime_ns >= started_ns - RACY_NS:
                    complete[is_file] = False
                    continue
                if is_file:
                    out.append((path, st.st_mtime_ns, st.st_size))
                else:
                    entries = known.get((path, st.st_mtime_ns)) or _entries_digest(path)
                    out.append((path, st.st_mtime_ns, entries))
            except OSError:
                complete[is_file] = False
    return tuple(out_files), tuple(out_folders), complete[True] and complete[False], complete[False]


def _entries_digest(folder: str) -> bytes:
    """What a folder holds: its entries' names, and which are folders. (Taken after a run, from a
    folder last changed before it: what the run listed.)"""
    with os.scandir(folder) as it:
        entries = sorted(f"{e.name}/" if e.is_dir() else e.name for e in it)
    return digest("\0".join(entries).encode("utf-8", "surrogateescape"))


def folder_holds(folder: str, mtime_ns: int, entries: bytes) -> bool:
    """Does the folder still hold what it held? Its time, else (it changed) its entries."""
    try:
        return os.stat(folder).st_mtime_ns == mtime_ns or _entries_digest(folder) == entries
    except OSError:
        return False


def stamps_hold(stamps: tuple) -> bool:
    """Does every file a run read still have the time and size recorded, and every folder it
    listed the same entries?"""
    try:
        files, folders, complete, _ = stamps
        if complete is not True:
            return False
        for path, mtime_ns, size in files:
            st = os.stat(path)
            if st.st_mtime_ns != mtime_ns or st.st_size != size:
                return False
        return all(folder_holds(*folder) for folder in folders)
    except (OSError, ValueError, TypeError):
        return False


# ---- entries ---------------------------------------------------------------------------------


def write_entry(path: Path, key: bytes, payload: bytes | list[bytes], kind: bytes = SUMMARY) -> None:
    header = _MAGIC + kind + key + _crc(payload)
    try:
        _atomic_write(path, [header, *payload] if isinstance(payload, list) else [header, payload])
    except OSError:
        pass  # a cache that cannot be written costs time, never a result


def read_entry(path: Path, key: bytes, kind: bytes) -> bytes | None:
    """The payload of a whole, matching entry; None for a missing, foreign or corrupt one."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
            stale = time.time() - os.fstat(fh.fileno()).st_mtime > _DAY
    except OSError:
        return None
    if stale:
        try:
            os.utime(path)  # still in use: keep it from pruning (see Cache._prune)
        except OSError:
            pass
    if len(raw) < _HEADER or raw[:4] != _MAGIC or raw[4:5] != kind or raw[5:5 + _KEY_SIZE] != key:
        return None
    payload = raw[_HEADER:]
    if _crc(payload) != raw[5 + _KEY_SIZE:_HEADER]:
        return None
    return payload


def _atomic_write(path: Path, data: bytes | list[bytes]) -> None:
    """Write beside the target, then rename over it: readers see the old entry or the new one."""
    tmp = path.parent / f".tmp-{os.getpid()}-{os.urandom(6).hex()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask decides, as for any file
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.writelines([data] if isinstance(data, bytes) else data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# ---- findings --------------------------------------------------------------------------------


def _finding_fields() -> tuple[str, ...]:
    from .model import Finding

    return tuple(f.name for f in fields(Finding))


_FINDING_CODECS = None


def _codecs() -> dict:
    """How the non-plain fields of a Finding are stored and rebuilt: type, encode, decode."""
    global _FINDING_CODECS
    if _FINDING_CODECS is None:
        from .model import Confidence, Severity, Span

        _FINDING_CODECS = {
            "span": (Span, lambda s: (s.line, s.column, s.end_line, s.end_column), lambda v: Span(*v)),
            "severity": (Severity, lambda s: s.value, Severity),
            "confidence": (Confidence, lambda c: c.value, Confidence),
        }
    return _FINDING_CODECS


def _plain(value) -> bool:
    return value is None or type(value) in (str, int, bool) or (type(value) is tuple and all(type(v) is str for v in value))


def findings_to_data(findings: list) -> tuple | None:
    """(field names, rows) for a run record; None if a finding holds a value it cannot store
    faithfully (the run is then not recorded, and the next one recomputes)."""
    from operator import attrgetter

    names = _finding_fields()
    codecs = [(i, _codecs()[n]) for i, n in enumerate(names) if n in _codecs()]
    plain = [i for i, n in enumerate(names) if n not in _codecs()]
    get = attrgetter(*names)
    rows = []
    for f in findings:
        row = list(get(f))
        for i, (kind, encode, _) in codecs:
            if not isinstance(row[i], kind):
                return None
            row[i] = encode(row[i])
        if not all(_plain(row[i]) for i in plain):
            return None
        rows.append(tuple(row))
    return names, rows


def findings_from_data(names, rows) -> list:
    from .model import Finding

    names = tuple(names)
    if names != _finding_fields():
        raise FormatError("findings of another format")
    codecs = [(i, _codecs()[n][2]) for i, n in enumerate(names) if n in _codecs()]
    out = []
    for row in rows:
        row = list(row)
        for i, decode in codecs:
            row[i] = decode(row[i])
        out.append(Finding(*row))
    return out


# ---- a whole run -----------------------------------------------------------------------------


def check_paths(paths: list[str], config, selection=None, *, force_exclude: bool = False, cache: Cache | None = None,
                jobs: int | None = None, progress=None, reuse_findings: bool = True, freeze: bool = False):
    """`api.check_paths` with the cache and the process pool, for the command line.

    When nothing the findings depend on changed since this invocation's last run, they are read
    back whole; otherwise unchanged files' summaries are read back and only changed files are
    summarised. What the findings depend on is every file `api.check_paths` reads — the ones
    given and the modules they import, found from the module-level parts of their summaries,
    which the record keeps — with its content hash, and jobcheck's own build.
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
    planned = previous = None
    if invocation is not None and reuse_findings:
        reused, previous = _reuse(paths, config, selection, force_exclude, cache, invocation, started, folders)
        if isinstance(reused, api.Report):
            return reused
        planned = reused  # the files the attempt found (and `folders` the folders it listed), or None
    if planned is None:
        folders.clear()
    with Summarizer(cache, jobs, progress) as summarizer:
        report = api.check_paths(paths, config, selection, summarizer=summarizer, force_exclude=force_exclude,
                                 folders=folders, observe=invocation is not None, planned=planned)
    if invocation is not None:
        summarizer.close()  # seals the inputs, if api.check_paths has not already
        if summarizer.sealed_inputs is None:
            return report  # a file could not be read: nothing to record
        stamps = take_stamps(summarizer.read_paths, folders, started, previous)
        observation = report.project.observation()
        if observation is not None:
            from .fingerprint import SourceLines
            from .observed import finding_lines

            observation.lines = finding_lines(report.findings, SourceLines(keep=1))
        cache.store_run(invocation, summarizer.sealed_inputs, report.findings, report.files, stamps,
                        observation.to_data() if observation is not None else None)
    return report


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
    them, that each is what the recorded run read (same name and path; same content hash, or a
    changed file whose edit the recorded run's analysis would not see — see `observed`), and
    returns the module-level part of its summary, kept in the record — enough to find which
    further files (imported modules) the run reads. Raises _Miss at the first difference that
    matters, so a changed file costs no more than reading the files before it. A file whose
    recorded time and size still hold is not read at all."""

    def __init__(self, cache: Cache, expected: tuple, stamps: tuple | None, record: RunRecord) -> None:
        self.cache = cache
        self.expected = expected
        self.seen = 0
        self.stamps = {path: (mtime, size) for path, mtime, size in stamps[0]} if stamps else {}
        self.record = record
        self.observation = None
        self.inputs: list = []  # what this run read: the record's inputs, edited files updated
        self.edited = False

    def __call__(self, planned) -> list[ModuleSummary]:
        out = []
        for path, display, module, is_package in planned:
            if self.seen >= len(self.expected):
                raise _Miss(display)
            was_display, was_path, key, head = self.expected[self.seen]
            if (was_display, was_path) != (display, str(path)):
                raise _Miss(display)
            if not self._stamp_holds(was_path):
                try:
                    data = path.read_bytes()
                except OSError:
                    raise _Miss(display) from None
                was_key, key = key, self.cache.summary_key(digest(data), module, is_package)
                if key != was_key:
                    head = self._edited(data, display, module, is_package, key, was_key)
            try:
                summary = unpack_head(head)
            except FormatError:
                raise _Miss(display) from None
            summary.path = display
            self.inputs.append((display, str(path), key, head))
            self.seen += 1
            out.append(summary)
        return out

    def _stamp_holds(self, path: str) -> bool:
        stamp = self.stamps.get(path)
        if stamp is None:
            return False
        try:
            st = os.stat(path)
        except OSError:
            return False
        return (st.st_mtime_ns, st.st_size) == stamp

    def _edited(self, data: bytes, display: str, module: str, is_package: bool, key: bytes, was_key: bytes) -> bytes:
        """The packed head of an edited file, if the recorded analysis would not see the edit."""
        from . import engine
        from .serialize import pack

        if self.observation is None:
            self.observation = self.record.observation()
            if self.observation is None:
                raise _Miss(display)
        old = self.cache.load_summary(was_key, display)
        if old is None:
            raise _Miss(display)  # nothing to compare with
        blob = pack(engine.summarize_bytes(data, display, module, is_package))
        entry = self.cache.summary_entry(key)
        if entry is not None:
            write_entry(Path(entry), key, blob)  # the run re-linking, should it come to that, reads it
        new = unpack(blob)  # compared as the cache will give it back
        if not self.observation.edit_is_unobserved(old, new):
            raise _Miss(display)
        recorded = self.observation.lines.get(display)
        if recorded is not None:
            from .fingerprint import SourceLines
            from .observed import finding_lines

            text = SourceLines({display: _decoded(data)})
            findings = [f for f in self.record.findings() or () if f.path == display]
            if finding_lines(findings, text).get(display) != recorded:
                raise _Miss(display)  # the text findings count columns in changed
        self.edited = True
        return head_of(blob)


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
    reused = _reuse_by_inputs(cache, invocation, record, started)
    if reused is _RELINK:
        return None, record.stamps
    if reused is not None:
        return reused, None
    return _reuse_by_content(paths, config, force_exclude, cache, invocation, record, started, folders), record.stamps


def _reuse_by_inputs(cache: Cache, invocation: bytes, record: RunRecord, started: int):
    """The recorded findings, if they hold, checked file by file without finding the files again.

    When every folder the recorded run listed still holds the entries it held, the run would find
    the same files, and the same modules for their imports unless an edited file now names other
    things. So each file the record lists is checked alone — its time and size, else its content
    hash — and an edited one must name what it named before (`_names_followed`) besides leaving
    what the analysis looks at unchanged (`_Heads._edited`). None when that cannot be settled
    here: the caller then replays discovery and import resolution (`_reuse_by_content`);
    `_RELINK` when an edit the analysis looks at settles that the project must be linked again."""
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
    try:
        for index, (display, path, key, head) in enumerate(inputs):
            if not heads._stamp_holds(path):
                try:
                    data = Path(path).read_bytes()
                    was = unpack_head(head)
                except (OSError, FormatError):
                    return None
                is_package = os.path.basename(path) == "__init__.py"
                was_key, key = key, cache.summary_key(digest(data), was.module, is_package)
                if key != was_key:
                    new_head = heads._edited(data, display, was.module, is_package, key, was_key)
                    given = index < record.checked
                    followed = _names_followed(was, given, is_package)
                    if followed != _names_followed(unpack_head(new_head), given, is_package):
                        return None
                    head = new_head
            heads.inputs.append((display, path, key, head))
    except _Miss:
        return _RELINK  # a replay would reach the same file with the same content
    return _reused(cache, invocation, record, heads, [folder[0] for folder in stamps[1]], record.checked, started)


_RELINK = "relink"


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


def _reused(cache: Cache, invocation: bytes, record: RunRecord, heads: _Heads, folders, checked: int, started: int):
    """The recorded findings as a Report (None if they cannot be decoded), with the record brought
    up to date: new times, and the edited files' summaries."""
    from .api import Report

    encoded = record.encoded_findings()
    findings = record.findings(encoded)
    if findings is None:
        return None
    stamps = take_stamps([path for _, path, _, _ in heads.inputs], folders, started, record.stamps)
    if stamps != record.stamps or heads.edited:
        observation = heads.observation or record.observation()
        cache.store_run(invocation, heads.inputs, findings, checked, stamps,
                        observation.to_data() if observation is not None else None, encoded)
    return Report(findings=findings, files=checked, project=None,  # type: ignore[arg-type]
                  reused="unobserved" if heads.edited else "content")


def _reuse_by_content(paths, config, force_exclude, cache: Cache, invocation: bytes, record: RunRecord, started: int,
                      folders: set[str]):
    from . import api, context, files

    inputs = record.inputs
    heads = _Heads(cache, inputs, record.stamps, record)
    # What `api.check_paths` reads before its project phase, in the same order: the files
    # given, then the modules they import (found from the summary heads). This mirrors its
    # first lines; should they change, the record simply stops matching (a test asserts
    # that records are reused). The project phase itself is not run on heads.
    found = files.discover(paths, config.root, config.exclude + config.extend_exclude, force_exclude, folders)
    planned = api.plan_modules(found, folders)
    try:
        context.load(heads(planned), api._import_roots(planned, config), heads, folders=folders)
    except _Miss:
        return planned
    if heads.seen != len(inputs):
        return planned
    # Same content (or edits nothing looked at), new times: record them, and the edited files.
    reused = _reused(cache, invocation, record, heads, folders, len(planned), started)
    return planned if reused is None else reused
