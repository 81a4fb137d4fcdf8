"""Reading a source file for fixing and writing it back the way it was: same encoding (a BOM, a
PEP 263 coding line), same newlines, same file mode, and atomically — the new content goes to a
temporary file in the same folder, is flushed to disk, and is renamed over the original, so a
crash leaves the old file or the new one, never a truncated one.
"""

from __future__ import annotations

import io
import os
import stat
import tempfile
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


def read(path: Path) -> Source:
    data = read_source(path)
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)  # bytes.decode leaves \r\n alone; "utf-8-sig" drops the BOM
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
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".jobcheck-tmp")
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
