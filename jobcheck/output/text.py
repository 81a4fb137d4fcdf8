"""`--output-format text`: each finding with its code line and chain, then a summary per rule."""

from __future__ import annotations

from collections import Counter
from pathlib import Path


def _source_lines(path: str, cache: dict) -> list[str]:
    if path not in cache:
        try:
            cache[path] = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            cache[path] = []
    return cache[path]


def render(report, stream, color: bool = False, sources: dict | None = None, **_options) -> None:
    bold, red, yellow, dim, reset = ("\x1b[1m", "\x1b[31m", "\x1b[33m", "\x1b[2m", "\x1b[0m") if color else ("",) * 5
    cache: dict = dict(sources or {})
    for f in report.findings:
        tint = red if f.severity.value == "error" else yellow
        stream.write(f"{bold}{f.path}:{f.line}:{f.column}:{reset} {tint}{f.code}{reset} [{f.name}] {f.message}\n")
        lines = _source_lines(f.path, cache)
        if 0 < f.line <= len(lines):
            text = lines[f.line - 1]
            stream.write(f"{dim}{f.line:>5} |{reset} {text}\n")
            width = max(1, (f.span.end_column - f.column) if f.span.end_line == f.line else len(text) - f.column + 1)
            stream.write(f"{dim}      |{reset} {' ' * (f.column - 1)}{tint}{'^' * width}{reset}\n")
        if len(f.chain) > 1:
            stream.write(f"{dim}      = chain:{reset} {' -> '.join(f.chain)}\n")
        if f.job:
            stream.write(f"{dim}      = job:{reset} {f.job} ({f.confidence.value} confidence)\n")
        stream.write("\n")
    counts = Counter(f.code for f in report.findings)
    if counts:
        per_rule = ", ".join(f"{code}: {n}" for code, n in sorted(counts.items()))
        stream.write(f"Found {len(report.findings)} finding{'s' if len(report.findings) != 1 else ''} in {report.files} files ({per_rule}).\n")
    else:
        stream.write(f"No findings in {report.files} files.\n")
