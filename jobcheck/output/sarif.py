"""`--output-format sarif`: SARIF 2.1.0 for code-scanning services (GitHub, GitLab, Azure DevOps).

Rule metadata comes from the rule documents (the same text `jobcheck explain` shows). URIs are
relative to the repository root (`%SRCROOT%`), columns are counted in characters, and each result
carries the line-independent fingerprint that baselines use, so an alert survives code moving.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

from .. import __version__
from ..engine.fingerprint import SourceLines, fingerprints, printable, relative_path, repo_root
from ..model import Severity
from ..ruledocs import load_all

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
FINGERPRINT_KEY = "jobcheck/v1"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_HEADING = re.compile(r"^#+\s")


def _first_paragraph(body: str) -> str:
    """The first paragraph under the document's first heading ("What it does"), on one line."""
    paragraph: list[str] = []
    in_code = False
    for line in body.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code or line.startswith("```") or _HEADING.match(line):
            if paragraph:
                break
            continue
        if not line.strip():
            if paragraph:
                break
            continue
        paragraph.append(line.strip())
    return " ".join(paragraph)


def _rules() -> list[dict]:
    out = []
    for code, (info, body) in load_all().items():
        markdown = body.strip()
        out.append({
            "id": code,
            "name": info.name,
            "shortDescription": {"text": info.summary},
            "fullDescription": {"text": _first_paragraph(body) or info.summary},
            "help": {"text": f"{info.summary}.\n\n{markdown}", "markdown": markdown},
            "defaultConfiguration": {"level": LEVELS[info.severity], "enabled": info.default},
            "properties": {
                "tags": list(info.tags) or ["reliability"],
                "precision": info.precision,
                "question": info.question,
            },
        })
    return out


def build(report, root: Path | None = None, sources: SourceLines | None = None) -> dict:
    root = root or repo_root(Path.cwd())
    sources = sources or SourceLines()
    rules = _rules()
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    prints = fingerprints(report.findings, root, sources)
    results = []
    for f, fp in zip(report.findings, prints):
        span = f.span
        region = {
            "startLine": span.line,
            "startColumn": sources.char_column(f.path, span.line, span.column),
            "endLine": max(span.end_line, span.line),
            "endColumn": sources.char_column(f.path, span.end_line, span.end_column),
        }
        if (region["endLine"], region["endColumn"]) <= (region["startLine"], region["startColumn"]):
            del region["endLine"], region["endColumn"]  # a point, not a range: let viewers pick
        uri = relative_path(f.path, root)
        artifact = {"uri": Path(uri).as_uri()} if Path(uri).is_absolute() else {"uri": quote(uri.encode("utf-8", "surrogateescape")), "uriBaseId": "%SRCROOT%"}
        result = {
            "ruleId": f.code,
            "level": LEVELS[f.severity],
            "message": {"text": f.message},
            "locations": [{"physicalLocation": {"artifactLocation": artifact, "region": region}}],
            "partialFingerprints": {FINGERPRINT_KEY: fp},
            "properties": {"name": f.name, "confidence": f.confidence.value, "job": f.job, "jobs": list(f.jobs), "chain": list(f.chain)},
        }
        if f.code in index:
            result["ruleIndex"] = index[f.code]
        results.append(result)
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "jobcheck",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": rules,
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root.resolve().as_uri().rstrip("/") + "/"}},
            "columnKind": "unicodeCodePoints",
            "invocations": [{"executionSuccessful": True}],
            "results": results,
        }],
    }


def render(report, stream, root: Path | None = None, sources: dict | None = None, **_options) -> None:
    stream.write(printable(json.dumps(build(report, root, SourceLines(sources)), indent=2, ensure_ascii=False)) + "\n")
