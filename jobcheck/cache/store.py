"""The `.jobcheck_cache` folder: per-file summaries keyed by content, and each run's findings.

    .jobcheck_cache/
      CACHEDIR.TAG, .gitignore           backup tools and git leave the folder alone
      0.1.0-<build>/                     one folder per summariser build (version + its source)
        s-<key>                          a file's summary: key = hash(content, module name, package?)
        r-<invocation>                   the last findings of one invocation, with the stamps of
                                         what it read (`stamps`) and jobcheck's whole build

Every entry carries its key and a checksum of its payload: a truncated, corrupt or foreign entry
is ignored (and rewritten by the run), never trusted. Writes go to a temporary file in the same
folder and are renamed into place, so concurrent runs see a whole entry or none. An unwritable
cache never fails a run. When a record may be reused is decided in `engine.cached_run`.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import marshal
import os
import re
import sys
import time
import zlib
from dataclasses import fields
from pathlib import Path

from .. import __version__
from ..analysis.serialize import FormatError

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
SUMMARY_MODULES = (
    "analysis.source", "analysis.parse", "analysis.summary", "analysis.keys", "analysis.suppress", "analysis.serialize",
    "analysis.big_literals", "analysis.bindings", "analysis.retry_loops", "analysis.values", "analysis.words",
)
_PACKAGE = Path(__file__).resolve().parent.parent
_fingerprints: dict[str, str] = {}


def summary_fingerprint() -> str:
    """The build of the summariser: jobcheck's version, the Python running it, the libcst that
    parses what that Python cannot, and the source of the summarising modules (a development
    checkout changes without a new version)."""
    if "summary" not in _fingerprints:
        h = hashlib.blake2b(digest_size=6)
        parser = importlib.metadata.version("libcst")
        h.update(repr((__version__, sys.implementation.cache_tag, sys.version_info[:3], marshal.version, parser)).encode())
        for name in SUMMARY_MODULES:
            h.update((_PACKAGE / f"{name.replace('.', '/')}.py").read_bytes())
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
        return digest(b"\0".join((self.salt, content, module.encode("utf-8", "surrogateescape"), b"P" if is_package else b"M")))

    def summary_path(self, key: bytes) -> Path:
        return self.folder / f"s-{key.hex()}"

    def run_path(self, invocation: bytes) -> Path:
        return self.folder / f"r-{invocation.hex()}"

    # ---- summaries ---------------------------------------------------------------------------

    def load_packed(self, key: bytes) -> bytes | None:
        """A cached summary, packed (`serialize.unpack` reads it), if whole and matching."""
        return read_entry(self.summary_path(key), key, SUMMARY)

    def summary_entry(self, key: bytes) -> str | None:
        """Where a new summary goes (None if the cache cannot be written)."""
        return str(self.summary_path(key)) if self.prepare() else None

    # ---- run records -------------------------------------------------------------------------

    def load_run(self, invocation: bytes) -> RunRecord | None:
        """The record of this invocation's last run, if whole and made by this build."""
        payload = read_entry(self.run_path(invocation), invocation, RUN)
        if payload is None:
            return None
        sections = _sections(payload, 3)
        if sections is None:
            return None
        try:
            build, stamps, checked = marshal.loads(sections[0])
        except (ValueError, EOFError, TypeError):
            return None
        if build != code_fingerprint() or type(stamps) is not tuple or type(checked) is not int:
            return None
        return RunRecord(stamps, checked, sections[1], sections[2])

    def store_run(self, invocation: bytes, inputs: bytes, findings: list, checked: int, stamps: tuple) -> None:
        """Record a run: every file it read (marshalled (display, path, key, module) tuples: their
        summaries are kept while the record is used), its findings, how many files it checked
        (reported on) and `stamps` (see `stamps.take_stamps`)."""
        encoded = findings_to_data(findings)
        if encoded is None or not self.prepare():
            return  # unstorable findings, or no cache folder: the next run recomputes
        sections = [marshal.dumps((code_fingerprint(), stamps, checked)), inputs, marshal.dumps(encoded)]
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
        no summary (nothing refreshes their times), but the run after the next edit reads them."""
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
    """What a run read, and its findings (decoded only when used)."""

    def __init__(self, stamps: tuple, checked: int, inputs, findings) -> None:
        self.stamps = stamps
        self.checked = checked  # files reported on
        self._inputs, self._findings = inputs, findings

    @property
    def inputs(self) -> tuple:
        try:
            inputs = marshal.loads(self._inputs)
        except (ValueError, EOFError, TypeError):
            return ()
        return inputs if type(inputs) is tuple else ()

    def findings(self) -> list | None:
        try:
            names, rows = marshal.loads(self._findings)
            return findings_from_data(names, rows)
        except (FormatError, ValueError, EOFError, TypeError, KeyError):
            return None


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
    from ..model import Finding

    return tuple(f.name for f in fields(Finding))


_FINDING_CODECS = None


def _codecs() -> dict:
    """How the non-plain fields of a Finding are stored and rebuilt: type, encode, decode."""
    global _FINDING_CODECS
    if _FINDING_CODECS is None:
        from ..model import Confidence, Severity, Span

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
    from ..model import Finding

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
