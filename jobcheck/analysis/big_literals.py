"""Huge data literals, read without building their `ast`: a 6 MB dict literal parses into about
800 MB of `ast` nodes, and a summary keeps nothing of it but "some data".

A module-level assignment whose value is a bracketed literal of at least `MIN_SIZE` characters,
made only of strings, numbers, True/False/None, brackets, commas, colons and signs (fixtures,
generated tables, translations), is replaced before parsing by `(...)` padded with the same
line breaks, so every line and column after it stays where it was:

    DATA = {"a": {"id": 1},      ->  DATA = (...
            "b": {"id": 2}}      ->                )

Nothing that analysis reads can be inside such a literal (no call, no name): its Value is
"other" instead of a huge one, and key-named dict keys in it (`"idempotency_key": None`) record
no sink. Its syntax is still checked, in pieces of at most `CHUNK` characters, each compiled
alone and dropped: a literal Python would refuse is left in place (the parser reports it).
Which text is a literal is found by a scan of its tokens; the caller confirms it on the parsed
module (`confirmed`): each placeholder must be the whole value of a module-level assignment
at its own position, which holds only if the scan started in code, not inside a string.
"""

from __future__ import annotations

import ast
import bisect
import functools
import re
import warnings
from dataclasses import dataclass

MIN_SIZE = 128 * 1024
CHUNK = 64 * 1024

# `NAME =`, `NAME.attr =`, `NAME: type =` at the start of a line, then an opening bracket.
_CANDIDATE = re.compile(r"^[A-Za-z_][\w.]*[ \t]*(?::[^\n=]*)?=[ \t]*([\[{(])", re.M)
_SKIP = r"(?:[ \t\f\r\n]|#[^\r\n]*|\\\r?\n)*"  # one character at a time: no nested `+` to backtrack through
_STRING = (r"(?:[rRbBuU]|[rR][bB]|[bB][rR])?(?:"
           r"'''(?:[^'\\]|\\[\s\S]|'(?!''))*'''|\"\"\"(?:[^\"\\]|\\[\s\S]|\"(?!\"\"))*\"\"\"|"
           r"'(?:[^'\\\r\n]|\\(?:\r\n|[\s\S]))*'|\"(?:[^\"\\\r\n]|\\(?:\r\n|[\s\S]))*\")")
_NUMBER = (r"(?:0[xX](?:_?[0-9a-fA-F])+|0[bB](?:_?[01])+|0[oO](?:_?[0-7])+|"
           r"(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?[jJ]?)(?![\w.])")
_ATOM = rf"(?:{_STRING}|{_NUMBER}|(?:True|False|None)(?!\w)|[:+\-])"
# A bracketed group of atoms and commas nested at most _MAX_DEPTH deep (a regular expression
# cannot count; brackets of different kinds may pair here: compiling the chunks refuses them).
_MAX_DEPTH = 16


@functools.cache
def _top_level_item() -> re.Pattern:
    """One element of the literal's top level: atoms and whole groups (group 1), a comma or the
    closing bracket (group 2); the scan walks these, so one match is one record of a table.
    Compiled on first use (a third of a second): most runs never meet a huge literal."""
    group = rf"[\[{{(]{_SKIP}[\]}})]"
    for _ in range(_MAX_DEPTH):
        group = rf"[\[{{(](?:{_SKIP}(?:{_ATOM}|,|{group}))*{_SKIP}[\]}})]"
    return re.compile(rf"{_SKIP}(?:((?:{_ATOM}|{group})(?:{_SKIP}(?:{_ATOM}|{group}))*)|([\]}}),]))")
_CLOSER = {"[": "]", "{": "}", "(": ")"}


@dataclass(frozen=True)
class Placeholder:
    start: int  # offset of the opening bracket in the text
    end: int  # offset just past the closing bracket
    line: int  # 1-based line of the opening bracket
    col: int  # its column, in UTF-8 bytes (as `ast` counts)
    end_line: int
    end_col: int


def elide(text: str) -> tuple[str, list[Placeholder]]:
    """TEXT with its huge module-level data literals replaced, and where they were."""
    if len(text) < MIN_SIZE:
        return text, []
    pieces: list[str] = []
    found: list[Placeholder] = []
    done = 0
    for match in _CANDIDATE.finditer(text):
        start = match.start(1)
        if start < done:
            continue
        end = _literal_end(text, start)
        if end is None:
            continue
        pieces += [text[done:start], _blank(text, start, end)]
        found.append(_placeholder(text, start, end))
        done = end
    return ("".join(pieces) + text[done:], found) if found else (text, [])


def confirmed(tree: ast.Module, placeholders: list[Placeholder]) -> bool:
    """Is each placeholder the whole value of a module-level assignment, where it was put?"""
    at = {(p.line, p.col): p for p in placeholders}
    seen = 0
    for node in tree.body:
        value = getattr(node, "value", None)
        if not isinstance(node, (ast.Assign, ast.AnnAssign)) or not isinstance(value, ast.Constant) \
                or value.value is not Ellipsis:
            continue
        p = at.get((value.lineno, value.col_offset - 1))
        if p is not None and (node.end_lineno, node.end_col_offset) == (p.end_line, p.end_col):
            seen += 1
    return seen == len(placeholders)


def _literal_end(text: str, start: int) -> int | None:
    """The end of the bracketed literal opening at START, if it is pure data, at least
    MIN_SIZE long and valid syntax; else None."""
    commas: list[int] = []  # the top-level separators, where the literal may be cut into chunks
    pos = start + 1
    match_at = _top_level_item().match
    while True:
        m = match_at(text, pos)
        if m is None:
            return None  # a name, an operator, an unfinished string, too deep: not pure data
        pos = m.end()
        token = m.group(2)
        if token == ",":
            commas.append(pos - 1)
        elif token is not None:
            break
    if text[pos - 1] != _CLOSER[text[start]] or pos - start < MIN_SIZE or not _valid(text, start, pos, commas):
        return None
    return pos


def _valid(text: str, start: int, end: int, commas: list[int]) -> bool:
    """Does Python accept the literal? Compiled in chunks cut at top-level commas, so no more
    than a chunk's worth of compiler structures exists at a time."""
    opener, closer = text[start], text[end - 1]
    cuts = [start]
    for comma in commas:
        if comma - cuts[-1] >= CHUNK:
            cuts.append(comma)
    cuts.append(end - 1)
    kinds = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes are the analysed code's business
        for i, (a, b) in enumerate(zip(cuts, cuts[1:])):
            chunk = text[a + 1:b]
            if not chunk.strip() and i < len(cuts) - 2:
                return False  # `[1, , 2]` cut at the empty element
            try:
                compile(f"{opener}{chunk}{closer}", "<data>", "eval", dont_inherit=True)
                if opener == "{":  # a dict's chunks must all be dicts, a set's all sets
                    k = bisect.bisect_right(commas, a)  # the chunk's first element ends at its first comma
                    first = chunk[: commas[k] - a - 1] if k < len(commas) and commas[k] < b else chunk
                    if first.strip():
                        kinds.add(type(ast.parse(f"{{{first}}}", mode="eval").body))
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                return False
    return len(kinds) <= 1


def _blank(text: str, start: int, end: int) -> str:
    """`(...` and `)` around the literal's line breaks; the last line keeps its width in bytes."""
    inner = text[start + 1:end - 1]
    breaks = list(re.finditer(r"\r\n|\r|\n", inner))
    if not breaks:
        return "(..." + " " * (len(inner.encode("utf-8", "surrogatepass")) - 3) + ")"
    last = breaks[-1].end()
    return ("(..." + "".join(b.group() for b in breaks)
            + " " * len(inner[last:].encode("utf-8", "surrogatepass")) + ")")


def _placeholder(text: str, start: int, end: int) -> Placeholder:
    line, col = _position(text, start)
    end_line, end_col = _position(text, end)
    return Placeholder(start, end, line, col, end_line, end_col)


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and UTF-8 column of OFFSET, counting line breaks as Python's parser does."""
    head = text[:offset]
    line = head.count("\n") + head.count("\r") - head.count("\r\n") + 1
    line_start = max(head.rfind("\n"), head.rfind("\r")) + 1
    return line, len(head[line_start:].encode("utf-8", "surrogatepass"))
