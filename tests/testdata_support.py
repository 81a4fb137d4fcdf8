"""The annotated-testdata convention, shared by the generic test and the fix tests.

    call()  # expect: JC101          a finding with this code starts on this line
    # expect: JC201, JC501           alone on a line: applies to the next code line
    call()  # todo-expect: JC103     a known false negative: asserted *not* reported yet
    call()  # todo-ok: JC201         a known false positive: asserted reported, to be fixed
    # jobcheck-test: select=JC201    (anywhere) which rules the file is checked for

Matching is strict both ways: a missing finding and an unannotated finding both fail.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTDATA = ROOT / "testdata"
_ANNOTATION = re.compile(r"#\s*(expect|todo-expect|todo-ok):\s*([A-Z0-9, ]+)")
_SELECT = re.compile(r"#\s*jobcheck-test:\s*select=([A-Z0-9, ]+)")


def annotations(text: str) -> dict[str, Counter]:
    """kind -> Counter of (line, code)."""
    out = {"expect": Counter(), "todo-expect": Counter(), "todo-ok": Counter()}
    pending: list[tuple[str, list[str]]] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        matches = _ANNOTATION.findall(line)
        if stripped.startswith("#"):
            pending.extend((kind, _codes(codes)) for kind, codes in matches)
            continue
        if not stripped:
            continue
        for kind, codes in pending + [(k, _codes(c)) for k, c in matches]:
            for code in codes:
                out[kind][(lineno, code)] += 1
        pending = []
    return out


def _codes(text: str) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()]


def selection_for(path: Path, text: str) -> list[str] | None:
    m = _SELECT.search(text)
    if m:
        return _codes(m.group(1))
    parts = path.relative_to(TESTDATA).parts
    if parts[0] == "rules" and re.fullmatch(r"JC\d{3}", parts[1]):
        return [parts[1]]
    return None


def cases() -> list[Path]:
    """Single files under rules/ and frameworks/; whole folders under projects/."""
    out = []
    for sub in ("rules", "frameworks"):
        out.extend(sorted(p for p in (TESTDATA / sub).rglob("*.py") if not p.name.endswith(".fixed.py")))
    out.extend(sorted(p for p in (TESTDATA / "projects").iterdir() if p.is_dir()))
    return out
