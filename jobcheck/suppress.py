"""Inline suppressions: `# jobcheck: ignore[JC201]` and `# noqa: JC201`.

A comment covers findings that start on its line or, when it stands alone on its line, on the
next line; a finding spanning several lines is covered by a comment on any of them. On the
entry point's `def` line it covers the whole job. Codes are matched exactly. A bare
`# jobcheck: ignore` names nothing and suppresses nothing (JC001 says so); a bare `# noqa`
belongs to other tools and is left alone.
"""

from __future__ import annotations

import re

_JOBCHECK = re.compile(r"#\s*jobcheck:\s*ignore\b(\[([^\]]*)\])?", re.I)
_NOQA = re.compile(r"#\s*noqa\b(?::\s*([A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.I)
_CODE = re.compile(r"[A-Z]+[0-9]+")


def scan(text: str) -> dict[int, list]:
    """line -> [standalone, [codes], bare] for each suppression comment in the file."""
    if "jobcheck" not in text and "noqa" not in text:
        return {}
    out: dict[int, list] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if "#" not in line:
            continue
        codes: list[str] = []
        bare = False
        m = _JOBCHECK.search(line)
        if m:
            if m.group(2) is None or not _CODE.findall(m.group(2).upper()):
                bare = True
            else:
                codes.extend(_CODE.findall(m.group(2).upper()))
        for n in _NOQA.finditer(line):
            if n.group(1):
                codes.extend(c for c in _CODE.findall(n.group(1).upper()) if c.startswith("JC"))
        if codes or bare:
            standalone = line.lstrip().startswith("#")
            out[lineno] = [standalone, codes, bare]
    return out


def covers(suppressions: dict, code: str, line: int, end_line: int) -> bool:
    for candidate in range(line, max(line, end_line) + 1):
        entry = suppressions.get(candidate) or suppressions.get(str(candidate))
        if entry and code in entry[1]:
            return True
    above = suppressions.get(line - 1) or suppressions.get(str(line - 1))
    return bool(above and above[0] and code in above[1])


def bare_lines(suppressions: dict) -> list[int]:
    return sorted(int(k) for k, v in suppressions.items() if v[2])
