"""A finding's identity that survives code moving: the one fingerprint behind baselines, SARIF
`partialFingerprints` and GitLab Code Quality `fingerprint`.

It hashes the path relative to a base folder, the rule, the job and the function, and the anchor
line's code with whitespace collapsed — never the line number, so inserting lines above a finding
or moving its function within the file keeps it. Identical findings (same inputs) are told apart
by their order in the file, so two copies of the same bad call stay two findings.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import Counter
from pathlib import Path

from ..model import Finding

VERSION = "v1"
_SURROGATE = re.compile("[\ud800-\udfff]")


def normalise(code: str) -> str:
    """Whitespace collapsed: re-indenting a moved function does not change its findings."""
    return " ".join(code.split())


def repo_root(start: Path) -> Path:
    """The nearest folder at or above `start` holding `.git` (a folder, or a file in worktrees and
    submodules); `start` itself when there is none. CI systems want paths relative to it."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return start


def relative_path(path: str, base: Path) -> str:
    """`path` (as displayed: relative to the working folder, or absolute) relative to `base`, with
    forward slashes; absolute when it lies outside `base`."""
    absolute = Path(os.path.abspath(path))
    # As spelled first, then with symlinks resolved on both sides (a checkout under a symlink);
    # realpath, not resolve(): a symlink loop among the files must not raise.
    for file, folder in ((absolute, Path(os.path.abspath(base))),
                         (Path(os.path.realpath(absolute)), Path(os.path.realpath(base)))):
        try:
            return file.relative_to(folder).as_posix()
        except ValueError:
            continue
    return absolute.as_posix()


class SourceLines:
    """The text of analysed files, line by line, read once each. In-memory sources (an editor's
    buffer, a test) take precedence over the disk."""

    def __init__(self, sources: dict[str, str] | None = None, keep: int | None = None) -> None:
        """`keep`: how many files read from disk to hold at once (all by default); a pass that
        goes file by file needs one, and a project's text adds up."""
        self._sources: dict[str, list[str]] = {p: t.splitlines() for p, t in (sources or {}).items()}
        self._cache: dict[str, list[str]] = dict(self._sources)
        self._keep = keep

    def lines(self, path: str) -> list[str]:
        if path not in self._cache:
            if self._keep is not None:
                read = [p for p in self._cache if p not in self._sources]
                for old in read[: max(0, len(read) - self._keep + 1)]:
                    del self._cache[old]
            from ..analysis.source import decode, read_source

            try:
                data = read_source(path)
            except OSError:
                self._cache[path] = []
            else:
                try:
                    text = decode(data)
                except UnicodeError:
                    text = data.decode("utf-8", "replace")
                self._cache[path] = text.splitlines()
        return self._cache[path]

    def line(self, path: str, number: int) -> str:
        lines = self.lines(path)
        return lines[number - 1] if 0 < number <= len(lines) else ""

    def char_column(self, path: str, line: int, column: int) -> int:
        """Findings already count columns in characters (`api` converts `ast`'s UTF-8 byte
        offsets once, for every format); kept so renderers have one place to ask."""
        return column


def was_read(finding: Finding) -> bool:
    """Was the finding's file read? Not for a JC000 that says it could not or must not be (a
    symlink to /etc/passwd, a FIFO, a file over the size limit): nothing may read it later, for
    an excerpt or a fingerprint, either."""
    return not (finding.code == "JC000" and finding.name == "unreadable-file")


def printable(text: str) -> str:
    """`text` with what cannot be written as UTF-8 (the bytes of a file name that is not UTF-8,
    held as lone surrogates) shown as U+FFFD: JSON reports must be valid Unicode."""
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


def fingerprints(findings: list[Finding], base: Path, sources: SourceLines) -> list[str]:
    """One fingerprint per finding, in the order given. Occurrence numbers follow the position in
    the file, whatever order the list is in."""
    out = [""] * len(findings)
    seen: Counter = Counter()
    for index in sorted(range(len(findings)), key=lambda i: findings[i].sort_key()):
        f = findings[index]
        identity = (
            VERSION,
            relative_path(f.path, base),
            f.code,
            f.job or "",
            f.function or "",
            normalise(sources.line(f.path, f.span.line)) if was_read(f) else "",
        )
        occurrence = seen[identity]
        seen[identity] += 1
        # surrogateescape: a file name that is not UTF-8 (`x\xff.py`) hashes as its bytes
        digest = hashlib.sha256("\0".join((*identity, str(occurrence))).encode("utf-8", "surrogateescape"))
        out[index] = digest.hexdigest()[:32]
    return out
