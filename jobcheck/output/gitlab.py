"""`--output-format gitlab`: a GitLab Code Quality report (the Code Climate subset GitLab reads
from `artifacts: reports: codequality`). Fingerprints are the line-independent ones baselines
use, so GitLab sees a moved finding as the same issue and a new one as new.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..engine.fingerprint import SourceLines, fingerprints, printable, relative_path, repo_root
from ..model import Severity

SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def build(report, root: Path | None = None, sources: SourceLines | None = None) -> list[dict]:
    root = root or repo_root(Path.cwd())
    sources = sources or SourceLines()
    prints = fingerprints(report.findings, root, sources)
    return [
        {
            "type": "issue",
            "check_name": f.code,
            "description": f"{f.code} {f.name}: {f.message}",
            "categories": ["Bug Risk"],
            "severity": SEVERITIES[f.severity],
            "fingerprint": fp,
            "location": {
                "path": relative_path(f.path, root),
                "lines": {"begin": f.span.line, "end": max(f.span.end_line, f.span.line)},
            },
        }
        for f, fp in zip(report.findings, prints)
    ]


def render(report, stream, root: Path | None = None, sources: dict | None = None, **_options) -> None:
    stream.write(printable(json.dumps(build(report, root, SourceLines(sources)), indent=2, ensure_ascii=False)) + "\n")
