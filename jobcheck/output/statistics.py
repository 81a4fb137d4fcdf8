"""`--statistics`: how many findings each rule has, instead of the findings (as ruff prints them).

    text, concise:  `  2  JC201  retry-on-unguarded-effect`, a line per rule
    json:           [{"code": "JC201", "name": "retry-on-unguarded-effect", "count": 2}, ...]

The CI formats (sarif, github, gitlab) locate each finding: they have no form for counts.
"""

from __future__ import annotations

import json

from . import text

FORMATS = ("text", "concise", "json")


def render(report, stream, output_format: str = "text", color: bool = False, **_options) -> None:
    if output_format == "json":
        rows = [{"code": code, "name": name, "count": n} for code, name, n in text.rule_totals(report.findings)]
        stream.write(json.dumps(rows, indent=2) + "\n")
    else:
        text.write_lines(text.rule_counts(report.findings), stream, color)
