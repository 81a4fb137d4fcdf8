"""The "suppress this finding" edit: `# jobcheck: ignore[JC201]` at the end of a line of the
finding, merged into a jobcheck comment already there (`ignore[JC101]` -> `ignore[JC101,JC201]`).

The comment goes on the first line of the finding's span that can end with a comment: not a line
that ends inside a triple-quoted string, nor one continued with a backslash. Text-level: the file
need not parse for the edit to be made, only to choose the line well.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_JOBCHECK = re.compile(r"#\s*jobcheck:\s*ignore\b(?:\[([^\]]*)\])?", re.I)


@dataclass(frozen=True)
class LineEdit:
    """Replace columns [start, end) of a 1-based line (character columns) with `text`."""

    line: int
    start: int
    end: int
    text: str


def suppress(text: str, code: str, line: int, end_line: int | None = None) -> LineEdit | None:
    """The edit that suppresses `code` for a finding on lines line..end_line; None when already
    suppressed there."""
    lines = _LINE_BREAK.split(text)
    if not text:
        return None
    target = _commentable(text, line, end_line or line, len(lines))
    source = lines[target - 1]
    comments = _comments(text).get(target)
    if comments is not None:
        col, comment = comments
        m = _JOBCHECK.search(comment)
        if m is not None:
            codes = [c.strip().upper() for c in (m.group(1) or "").split(",") if c.strip()]
            if code in codes:
                return None
            merged = f"# jobcheck: ignore[{','.join([*codes, code])}]"
            return LineEdit(target, col + m.start(), col + m.end(), merged)
        # Another tool's comment (`# noqa: E501`, `# type: ignore`): ours goes first, theirs stays.
        return LineEdit(target, col, col, f"# jobcheck: ignore[{code}]  ")
    end = len(source.rstrip())
    sep = "" if end == 0 else "  "
    return LineEdit(target, end, len(source), f"{sep}# jobcheck: ignore[{code}]")


def apply(text: str, edit: LineEdit) -> str:
    parts = _LINE_BREAK.split(text)
    breaks = _LINE_BREAK.findall(text)
    body = parts[edit.line - 1]
    parts[edit.line - 1] = body[: edit.start] + edit.text + body[edit.end:]
    return "".join(p + b for p, b in zip(parts, [*breaks, ""]))


def _tokens(text: str) -> list[tokenize.TokenInfo]:
    out = []
    try:
        # newline=None: lines end at \r\n, \r and \n, as Python counts them (not at form feeds).
        for tok in tokenize.generate_tokens(io.StringIO(text, newline=None).readline):
            out.append(tok)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass  # a file being typed: use what tokenised
    return out


def _comments(text: str) -> dict[int, tuple[int, str]]:
    return {t.start[0]: (t.start[1], t.string) for t in _tokens(text) if t.type == tokenize.COMMENT}


def _commentable(text: str, line: int, end_line: int, count: int) -> int:
    """The first line in line..end_line whose end a comment may follow."""
    ends = {t.end[0] for t in _tokens(text) if t.type in (tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT)}
    # A line that ends in the middle of a token (a string, a backslash continuation) is not in `ends`.
    for candidate in range(line, min(end_line, count) + 1):
        if candidate in ends:
            return candidate
    return min(max(line, 1), count)
