"""`--output-format concise`: one line per finding, `path:line:col: CODE message`."""

from __future__ import annotations


def render(report, stream, **_options) -> None:
    for f in report.findings:
        stream.write(f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}\n")
