"""Baselines: record today's findings once, then report only new ones (adopting jobcheck on
legacy code).

The file is JSON: `{"version": 1, "findings": [{"fingerprint", "code", "path", "job", "anchor"}]}`.
Only `fingerprint` is matched; the other keys are there for a person reviewing the file. Paths
are relative to the baseline file's folder, so the check may run from any working folder.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ..engine.fingerprint import SourceLines, fingerprints, normalise, printable, relative_path
from ..model import Finding

FORMAT_VERSION = 1


class BaselineError(ValueError):
    """The baseline file cannot be read or is not a jobcheck baseline."""


def write(path: Path, findings: list[Finding], sources: SourceLines | None = None) -> int:
    """Write every finding in `findings` to `path`; returns how many."""
    sources = sources or SourceLines()
    base = path.resolve().parent
    prints = fingerprints(findings, base, sources)
    entries = sorted(
        (
            {
                "fingerprint": fp,
                "code": f.code,
                "path": relative_path(f.path, base),
                "job": f.job,
                "anchor": normalise(sources.line(f.path, f.span.line)),
            }
            for f, fp in zip(findings, prints)
        ),
        key=lambda e: (e["path"], e["code"], e["fingerprint"]),
    )
    text = json.dumps({"version": FORMAT_VERSION, "findings": entries}, indent=2, ensure_ascii=False)
    _replace(path, (printable(text) + "\n").encode("utf-8"))
    return len(entries)


def _replace(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file renamed over it: a failure (a folder that is
    missing or not writable, a full disk) leaves the previous baseline whole."""
    folder = path.parent
    if not folder.is_dir():
        why = "is not a folder" if folder.exists() else "does not exist"
        raise BaselineError(f"cannot write baseline {path}: {folder} {why}")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise BaselineError(f"cannot write baseline {path}: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as exc:
        _unlink(tmp)
        raise BaselineError(f"cannot write baseline {path}: {exc.strerror or exc}") from exc
    except BaseException:
        _unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def load(path: Path) -> set[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BaselineError(f"cannot read baseline {path}: {exc.strerror or exc}") from exc
    except ValueError as exc:
        raise BaselineError(f"baseline {path} is not JSON: {exc}") from exc
    except RecursionError as exc:  # the decoder recurses once per level of nesting
        raise BaselineError(f"{path} is not a jobcheck baseline: nested too deeply") from exc
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION or not isinstance(data.get("findings"), list):
        raise BaselineError(f"{path} is not a jobcheck baseline (version {FORMAT_VERSION})")
    known = set()
    for number, entry in enumerate(data["findings"], 1):
        fingerprint = entry.get("fingerprint") if isinstance(entry, dict) else None
        if not isinstance(fingerprint, str):
            raise BaselineError(f"baseline {path}: entry {number} has no fingerprint (a string)")
        known.add(fingerprint)
    return known


def filter_new(path: Path, findings: list[Finding], sources: SourceLines | None = None) -> list[Finding]:
    """The findings whose fingerprints the baseline at `path` does not hold."""
    known = load(path)
    prints = fingerprints(findings, path.resolve().parent, sources or SourceLines())
    return [f for f, fp in zip(findings, prints) if fp not in known]
