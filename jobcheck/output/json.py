"""`--output-format json`: one JSON array of findings, a stable public interface (see README)."""

from __future__ import annotations

import json


def render(report, stream, **_options) -> None:
    # One string, one write: json.dump writes piece by piece, which is slow on large reports.
    stream.write(json.dumps([f.to_json() for f in report.findings], indent=2) + "\n")
