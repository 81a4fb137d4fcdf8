"""One file in, one summary out: read bytes, decode (PEP 263), parse once with `ast`, summarise.

Files that cannot be analysed become summaries with an error (reported as JC000), never an
exception: one bad file must not stop the run. Analysed code is parsed, never imported or run.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import tokenize
from pathlib import Path

from . import big_literals, suppress
from .parse import parse
from .summary import ModuleSummary, Summarizer


def module_name(path: Path, packages: dict | None = None, probed: dict | None = None) -> tuple[str, bool]:
    """The dotted module name from the package folders (`__init__.py`) around the file.
    `packages` (one per run) remembers each folder's dotted package name; `probed`, if given,
    collects every `__init__.py` path looked for and whether it was there (the cache stamps them)."""
    # Discovery gives absolute paths below resolved roots: `abspath` (no system calls) is enough;
    # strings, not pathlib, since this runs for every file of every run.
    folder, name = os.path.split(os.path.abspath(path))
    is_package = name == "__init__.py"
    stem = os.path.splitext(name)[0]
    prefix = _package(folder, {} if packages is None else packages, probed)
    parts = [p for p in (prefix, None if is_package else stem) if p]
    return ".".join(parts) or stem, is_package


def _package(folder: str, packages: dict, probed: dict | None) -> str:
    """The dotted name of the package `folder` is ("" if it is no package)."""
    name = packages.get(folder)
    if name is None:
        base = os.path.basename(folder)
        name = ""
        parent = os.path.dirname(folder)
        if base.isidentifier() and parent != folder:
            if _has_init(folder, probed):
                outer = _package(parent, packages, probed)
                name = f"{outer}.{base}" if outer else base
            else:
                # A folder without one inside a package (or inside such a folder, at any depth:
                # `litellm/proxy/db/queue/`) is a namespace package of it.
                outer = _package(parent, packages, probed)
                name = f"{outer}.{base}" if outer else ""
        packages[folder] = name
    return name


def _has_init(folder: str, probed: dict | None) -> bool:
    init = os.path.join(folder, "__init__.py")
    found = os.path.isfile(init)
    if probed is not None:
        probed[init] = found
    return found


def decode(data: bytes) -> str:
    """Decode source bytes as Python does: BOM, then a PEP 263 coding line, else UTF-8."""
    if b"\x00" in data:
        raise UnicodeError("file contains NUL bytes")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise UnicodeError(str(exc)) from exc
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise UnicodeError(f"not valid {encoding}: {exc}") from exc
    return text.removeprefix("\ufeff")


def summarize_source(text: str, display_path: str, module: str, is_package: bool = False) -> ModuleSummary:
    try:
        tree = _parse(text, display_path)
    except SyntaxError as exc:
        summary = ModuleSummary(path=display_path, module=module)
        summary.error = f"cannot parse: {exc.msg}"
        summary.error_kind = "parse-error"
        summary.error_line = exc.lineno or 1
        summary.error_col = exc.offset or 1
        return summary
    except (ValueError, RecursionError, MemoryError) as exc:
        summary = ModuleSummary(path=display_path, module=module)
        summary.error = f"cannot parse: {exc}"
        summary.error_kind = "parse-error"
        return summary
    try:
        summary = Summarizer(module, display_path, is_package).run(tree, "global" in text)
        summary.suppressions = suppress.scan(text)
    except RecursionError:
        summary = ModuleSummary(path=display_path, module=module)
        summary.error = "too deeply nested to analyse"
        summary.error_kind = "parse-error"
    except Exception as exc:  # a bug of ours: this file is reported (JC002), the others are analysed
        summary = ModuleSummary(path=display_path, module=module)
        summary.error = f"{type(exc).__name__}: {str(exc)[:200]}"
        summary.error_kind = "internal-error"
    return summary


def _parse(text: str, display_path: str):
    """The module's `ast`, without the nodes of huge data literals (see `big_literals`)."""
    lean, placeholders = big_literals.elide(text)
    if placeholders:
        try:
            tree = parse(lean, display_path)
        except SyntaxError:
            tree = None
        if tree is not None and big_literals.confirmed(tree, placeholders):
            return tree
        del tree
    return parse(text, display_path)


def read_source(path: Path | str, limit: int = -1) -> bytes:
    """A source file's bytes (its first `limit`, if given). Every reader of analysed files goes
    through here: what is not a regular file (a FIFO or a device named `x.py`, which would block or
    never end) is refused without being read, and a symlink loop fails as the OS says."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        return fh.read(limit)


def summarize_one(planned: tuple[Path, str, str, bool]) -> ModuleSummary:
    path, display, module, is_pkg = planned
    try:
        data = read_source(path)
    except OSError as exc:
        return _unreadable(display, module, f"cannot read: {exc.strerror or exc}")
    return summarize_bytes(data, display, module, is_pkg)


def summarize_file(path: Path, display_path: str) -> ModuleSummary:
    module, is_package = module_name(path)
    try:
        data = read_source(path)
    except OSError as exc:
        return _unreadable(display_path, module, f"cannot read: {exc.strerror or exc}")
    return summarize_bytes(data, display_path, module, is_package)


def summarize_bytes(data: bytes, display_path: str, module: str, is_package: bool = False) -> ModuleSummary:
    try:
        text = decode(data)
    except UnicodeError as exc:
        return _unreadable(display_path, module, str(exc))
    return summarize_source(text, display_path, module, is_package)


def _unreadable(display_path: str, module: str, reason: str) -> ModuleSummary:
    summary = ModuleSummary(path=display_path, module=module)
    summary.error = reason
    summary.error_kind = "unreadable-file"
    return summary
