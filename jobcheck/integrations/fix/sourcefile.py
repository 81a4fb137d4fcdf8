"""Reading a source file for fixing and writing it back the way it was: same encoding (a BOM, a
PEP 263 coding line), same newlines, same file mode, and atomically — the new content goes to a
temporary file in the same folder, is flushed to disk, and is renamed over the original, so a
crash leaves the old file or the new one, never a truncated one. A run killed before the rename
leaves its temporary file; the next run that writes in that folder removes it.
"""

from __future__ import annotations

import io
import os
import stat
import tempfile
import time
import tokenize
from dataclasses import dataclass
from pathlib import Path

from ...analysis.source import read_source


@dataclass(frozen=True)
class Source:
    path: Path
    data: bytes
    text: str  # decoded, BOM removed, newlines as in the file
    encoding: str  # as tokenize names it: "utf-8", "utf-8-sig" (with BOM), "latin-1"...

    def encode(self, text: str) -> bytes:
        """`text` in the file's encoding (a BOM again where there was one). Raises
        UnicodeEncodeError when the file's encoding cannot hold it."""
        return text.encode(self.encoding)


class EncodingNotKept(ValueError):
    """The file's declared encoding would not write back the bytes it was read from."""


def read(path: Path) -> Source:
    data = read_source(path)
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)  # bytes.decode leaves \r\n alone; "utf-8-sig" drops the BOM
    if text.encode(encoding) != data:
        # A codec that is no text encoding (`# coding: unicode_escape` writes each newline as
        # `\n`): the fixed file would be one line, or another file altogether.
        raise EncodingNotKept(f"its declared encoding ({encoding}) does not write back the bytes it reads; "
                              "fix it by hand, or declare a text encoding such as utf-8")
    return Source(path, data, text, encoding)


def newline_of(text: str) -> str:
    """The newline the file uses (its first one); "\\n" when it has none."""
    i = text.find("\n")
    if i > 0 and text[i - 1] == "\r":
        return "\r\n"
    if i < 0 and "\r" in text:
        return "\r"
    return "\n"


def write_atomic(path: Path, data: bytes) -> None:
    """Replace the file's content with `data`; a symlink keeps pointing at the file it names."""
    target = Path(os.path.realpath(path))
    mode = stat.S_IMODE(target.stat().st_mode)
    remove_stale_temporaries(target.parent)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=_TEMPORARY)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


_TEMPORARY = ".jobcheck-tmp"
_ABANDONED_AFTER = 3600  # seconds: a temporary file that names no process is left this long


def remove_stale_temporaries(folder: Path) -> None:
    """Remove the temporary files of runs killed mid-write (`.<name>.<pid>.<random>.jobcheck-tmp`)
    whose process is gone; one that names no process, once it is an hour old. Another run writing
    in the same folder keeps its own."""
    try:
        with os.scandir(folder) as entries:
            found = [(e.name, e.path) for e in entries if e.name.startswith(".") and e.name.endswith(_TEMPORARY)]
    except OSError:
        return
    for name, path in found:
        parts = name[: -len(_TEMPORARY)].rsplit(".", 2)
        pid = int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None
        try:
            if pid == os.getpid() or (pid is not None and _running(pid)):
                continue
            if pid is None and time.time() - os.lstat(path).st_mtime < _ABANDONED_AFTER:
                continue
            os.unlink(path)
        except OSError:
            continue  # removed by another run, or not ours to remove


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process (or not a pid at all: left alone)
    return True
