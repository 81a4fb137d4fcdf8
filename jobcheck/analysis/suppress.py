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


# Tokenizing is most of a file's summary cost, and linted code is full of `# noqa: E501`: only a
# comment that could name one of ours makes the file worth it.
_CANDIDATE = re.compile(r"#\s*(?:jobcheck\s*:|noqa\s*:[^\n]*?\bJC\d)", re.I)


def scan(text: str) -> dict[int, list]:
    """line -> [standalone, [codes], bare] for each suppression comment in the file.

    Only real comments count: the text is tokenized (when a candidate appears at all), so a
    docstring or a string that mentions `# jobcheck: ignore` suppresses nothing.
    """
    if not _CANDIDATE.search(text):
        return {}
    out: dict[int, list] = {}
    for lineno, comment, standalone in _comments(text):
        codes: list[str] = []
        bare = False
        m = _JOBCHECK.search(comment)
        if m:
            if m.group(2) is None or not _CODE.findall(m.group(2).upper()):
                bare = True
            else:
                codes.extend(_CODE.findall(m.group(2).upper()))
        for n in _NOQA.finditer(comment):
            if n.group(1):
                codes.extend(c for c in _CODE.findall(n.group(1).upper()) if c.startswith("JC"))
        if codes or bare:
            out[lineno] = [standalone, codes, bare]
    return out


def _comments(text: str):
    """(line, comment text, alone on its line) for every comment token."""
    import io
    import tokenize

    last_code_line = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                yield tok.start[0], tok.string, last_code_line != tok.start[0]
            elif tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
                last_code_line = tok.end[0]
    except (tokenize.TokenError, SyntaxError):
        return  # the file parsed with ast; a tokenizer quirk loses suppressions, not the run


def covers(suppressions: dict, code: str, line: int, end_line: int) -> bool:
    for candidate in range(line, max(line, end_line) + 1):
        entry = suppressions.get(candidate) or suppressions.get(str(candidate))
        if entry and code in entry[1]:
            return True
    above = suppressions.get(line - 1) or suppressions.get(str(line - 1))
    return bool(above and above[0] and code in above[1])


def bare_lines(suppressions: dict) -> list[int]:
    return sorted(int(k) for k, v in suppressions.items() if v[2])
