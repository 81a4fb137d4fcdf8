"""`--output-format json`: one JSON array of findings, a stable public interface (see README)."""

from __future__ import annotations

import json


def render(report, stream, **_options) -> None:
    json.dump([f.to_json() for f in report.findings], stream, indent=2)
    stream.write("\n")
