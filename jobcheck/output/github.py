"""`--output-format github`: GitHub Actions workflow commands, which GitHub shows as annotations
on the pull request's diff:

    ::error file=app/tasks.py,line=12,col=5,endLine=12,endColumn=20,title=JC201 retry-on-unguarded-effect::message

Paths are relative to the repository root (the workflow's workspace); values are escaped as the
Actions toolkit does, so a message with a newline or a `::` cannot end or forge the command.
"""

from __future__ import annotations

from pathlib import Path

from ..engine.fingerprint import SourceLines, relative_path, repo_root
from ..model import Severity

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report, stream, root: Path | None = None, sources: dict | None = None, **_options) -> None:
    root = root or repo_root(Path.cwd())
    lines = SourceLines(sources)
    for f in report.findings:
        span = f.span
        props = {
            "file": relative_path(f.path, root),
            "line": span.line,
            "col": lines.char_column(f.path, span.line, span.column),
        }
        if (span.end_line, span.end_column) > (span.line, span.column):
            props["endLine"] = span.end_line
            props["endColumn"] = lines.char_column(f.path, span.end_line, span.end_column)
        props["title"] = f"{f.code} {f.name}"
        rendered = ",".join(f"{key}={escape_property(str(value))}" for key, value in props.items())
        stream.write(f"::{COMMANDS[f.severity]} {rendered}::{escape_data(f.message)}\n")
