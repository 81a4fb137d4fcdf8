"""Findings as LSP diagnostics: 0-based positions in the client's units, the rule's code and a
link to its document, and the chain from the job to the effect as related information.

Findings count columns in characters; the project's anchors (where a job or a call is written)
come straight from `ast`, which counts UTF-8 bytes; LSP counts UTF-16 code units by default (or
what the client negotiated). Every column is converted through its line's text.

The rule link (`codeDescription.href`) is a `file://` URI of the rule's Markdown document in the
installed package (`jobcheck/rules/JC201.md`): it works offline and always matches the installed
version; `jobcheck explain JC201` renders the same document.
"""

from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types

from ...analysis.jobs import Anchor
from ...analysis.names import short
from ...analysis.project import Project
from ...analysis.source import read_source
from ...model import Finding, Severity
from ...ruledocs import rules_dir

SOURCE = "jobcheck"
SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Lines as LSP and Python count them: at \r\n, \r and \n only (not at form feeds)."""
    return _LINE_BREAK.split(text)


def rule_href(code: str) -> str | None:
    doc = rules_dir() / f"{code}.md"
    return doc.resolve().as_uri() if doc.is_file() else None


class Lines:
    """Line texts per file, for column conversion: open documents' text, else the file on disk."""

    def __init__(self, texts: dict[Path, str], units) -> None:
        self._texts = {str(p): t for p, t in texts.items()}
        self._lines: dict[str, list[str]] = {}
        self.units = units  # str -> number of client code units

    def of(self, path: str) -> list[str]:
        if path not in self._lines:
            text = self._texts.get(path)
            if text is None:
                try:
                    text = read_source(path).decode("utf-8", "replace")
                except OSError:
                    text = ""
            self._lines[path] = split_lines(text)
        return self._lines[path]

    def position(self, path: str, line: int, col: int, in_bytes: bool) -> types.Position:
        """1-based line, 0-based column (characters, or UTF-8 bytes) -> LSP position."""
        lines = self.of(path)
        if line < 1:
            return types.Position(0, 0)
        if line > len(lines):
            return types.Position(max(line - 1, 0), 0)
        text = lines[line - 1]
        prefix = text.encode("utf-8")[: max(col, 0)].decode("utf-8", "ignore") if in_bytes else text[: max(col, 0)]
        return types.Position(line - 1, self.units(prefix))

    def line_end(self, path: str, line: int) -> types.Position:
        lines = self.of(path)
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        return types.Position(max(line - 1, 0), self.units(text))

    def range(self, path: str, line: int, col: int, end_line: int, end_col: int, in_bytes: bool = False) -> types.Range:
        """0-based columns; an empty span grows to the rest of its line so it can be seen."""
        start = self.position(path, line, col, in_bytes)
        end = self.position(path, end_line, end_col, in_bytes)
        if (end.line, end.character) <= (start.line, start.character):
            end = self.line_end(path, line)
            if end.character <= start.character:
                start = types.Position(start.line, 0)
        return types.Range(start, end)


def diagnostic(f: Finding, lines: Lines, project: Project | None) -> types.Diagnostic:
    href = rule_href(f.code)
    return types.Diagnostic(
        range=lines.range(f.path, f.span.line, f.span.column - 1, f.span.end_line, f.span.end_column - 1),
        message=f.message,
        severity=SEVERITY.get(f.severity, types.DiagnosticSeverity.Warning),
        code=f.code,
        code_description=types.CodeDescription(href=href) if href else None,
        source=SOURCE,
        related_information=related(f, lines, project) or None,
        data={"function": f.function, "job": f.job, "end_line": f.span.end_line},
    )


def related(f: Finding, lines: Lines, project: Project | None) -> list[types.DiagnosticRelatedInformation]:
    """Where the job is, where its retries are configured, and each call on the way to the effect."""
    if project is None or not f.job:
        return []
    out: list[types.DiagnosticRelatedInformation] = []

    def add(anchor, message: str) -> None:
        loc = types.Location(uri=Path(anchor.path).as_uri(),
                             range=lines.range(anchor.path, anchor.line, anchor.col, anchor.end_line, anchor.end_col, in_bytes=True))
        out.append(types.DiagnosticRelatedInformation(location=loc, message=message))

    site = project.jobs.get(f.function or "")
    if site is None or site.display != f.job:
        site = next((s for s in project.jobs.values() if s.display == f.job), site)
    if site is not None:
        add(site.anchor, f"job `{short(site.display)}` ({site.framework} {site.kind})")
        policy = project.retry_of(site.function) if site.function in project.functions else None
        if policy is not None and f.code.startswith("JC2"):
            how = "retried by the framework's default" if policy.from_default else "retries configured here"
            add(policy.anchor, f"{how}: {policy.setting}")
    for i, name in enumerate(f.chain[:-1]):
        if name not in project.functions:
            continue
        rest = tuple(f.chain[i + 1:])
        for ce in project.call_effects(name):
            if ce.path.chain == rest:
                ev = project.functions[name].events[ce.event_index]
                path = project.function_module[name].path
                add(Anchor(path, ev.line, ev.col, ev.end_line, ev.end_col),
                    f"step {i + 1}: `{short(name)}` calls `{short(rest[0])}`")
                break
    return out
